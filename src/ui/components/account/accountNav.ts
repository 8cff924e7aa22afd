import type { assets } from '../../i18n/resources/assets.ts';

/** A key of the `assets` namespace (labels are translated at render time). */
export type AssetsKey = keyof (typeof assets)['en'];

/** One entry of the account-centre side navigation; a group has children and no own page. */
export interface AccountNavItem {
  label: AssetsKey;
  path: string;
  children?: readonly AccountNavItem[];
}

/**
 * The /my account centre (SPEC §2 "Account center"), in the same order as the mobile drawer's
 * account menu so both devices present one structure.
 */
export const ACCOUNT_NAV: readonly AccountNavItem[] = [
  { label: 'navDashboard', path: '/my/dashboard' },
  {
    label: 'navAssets',
    path: '/my/assets',
    children: [
      { label: 'navAssetsOverview', path: '/my/assets/overview' },
      { label: 'navFutures', path: '/my/assets/futures-account' },
      { label: 'navSpot', path: '/my/assets/spot-account' },
      { label: 'navFund', path: '/my/assets/fund-account' },
    ],
  },
  {
    label: 'navOrders',
    path: '/my/order',
    children: [
      { label: 'navFuturesOrders', path: '/my/order/futures' },
      { label: 'navWalletHistory', path: '/my/order/wallet-history' },
      { label: 'navConvertHistory', path: '/my/order/convert' },
    ],
  },
  { label: 'navRebate', path: '/my/rebate' },
  { label: 'navCompensation', path: '/my/compensation/orders' },
  { label: 'navCoupon', path: '/my/coupon' },
  { label: 'navSecurity', path: '/my/settings/security' },
  { label: 'navKyc', path: '/my/settings/kyc' },
  { label: 'navSettings', path: '/my/settings/preference' },
];

/** The asset sub-pages, shown as a tab row where the side navigation is hidden (tablet, phone). */
export const ASSET_PAGES: readonly AccountNavItem[] = ACCOUNT_NAV[1]?.children ?? [];
