import { desktopAccountMenu, drawerAccountMenu, menuOf, NAV, type MenuItem, type ShellKey } from './navTree.ts';

export type { MenuItem, ShellKey };

// The menus of the top bar and the drawer are drawn from the one nav tree (src/ui/app/navTree.ts).

/** Trade dropdown of the desktop top bar and the mobile drawer. */
export const TRADE_MENU: readonly MenuItem[] = menuOf(NAV.trade);

/** More dropdown. */
export const MORE_MENU: readonly MenuItem[] = menuOf(NAV.more);

/** Entries of the desktop account dropdown (Logout is added by the component). */
export const ACCOUNT_MENU: readonly MenuItem[] = desktopAccountMenu();

/** The expandable account menu of the mobile drawer (SPEC §2), Logout added by the component. */
export const MOBILE_ACCOUNT_MENU: readonly MenuItem[] = drawerAccountMenu();

/** Mobile bottom bar items; `match` are the path prefixes that make an item active. */
export interface BottomItem {
  key: 'home' | 'market' | 'trade' | 'convert' | 'assets';
  label: ShellKey;
  path: string | null;
  match: readonly string[];
}

export const BOTTOM_ITEMS: readonly BottomItem[] = [
  { key: 'home', label: 'home', path: '/', match: ['/'] },
  { key: 'market', label: 'market', path: '/market', match: ['/market'] },
  { key: 'trade', label: 'trade', path: null, match: ['/stdFuture', '/mFutures'] },
  { key: 'convert', label: 'convert', path: '/convert', match: ['/convert'] },
  { key: 'assets', label: 'assets', path: '/my/assets/overview', match: ['/my'] },
];

/** True when `path` equals `prefix` or continues it with '/' ('/' itself matches only '/'). */
export function pathHasPrefix(path: string, prefix: string): boolean {
  if (prefix === '/') return path === '/';
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The bottom-bar item active for `path` (longest matching prefix), or null. */
export function activeBottomItem(path: string): BottomItem['key'] | null {
  let best: { key: BottomItem['key']; len: number } | null = null;
  for (const item of BOTTOM_ITEMS) {
    for (const prefix of item.match) {
      if (pathHasPrefix(path, prefix) && (!best || prefix.length > best.len)) best = { key: item.key, len: prefix.length };
    }
  }
  return best?.key ?? null;
}
