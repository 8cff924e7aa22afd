import { sideNavigation, type AccountNavItem, type AssetsKey } from '../../app/navTree.ts';

export type { AccountNavItem, AssetsKey };

/**
 * The /my account centre's side navigation (SPEC §2 "Account center"), drawn from the account
 * subtree of the one nav tree (src/ui/app/navTree.ts) that also draws the drawer's account menu,
 * so both devices present one structure.
 */
export const ACCOUNT_NAV: readonly AccountNavItem[] = sideNavigation();

/** The asset sub-pages, shown as a tab row where the side navigation is hidden (tablet, phone). */
export const ASSET_PAGES: readonly AccountNavItem[] = ACCOUNT_NAV[1]?.children ?? [];
