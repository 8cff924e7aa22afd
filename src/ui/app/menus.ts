import type { shell } from '../i18n/resources/shell.ts';

/** A key of the `shell` namespace (labels are translated at render time). */
export type ShellKey = keyof (typeof shell)['en'];

/** SPEC §3 menu item: name (label key), path, optional children. */
export interface MenuItem {
  label: ShellKey;
  path: string;
  children?: readonly MenuItem[];
}

/** Trade dropdown of the desktop top bar and the mobile drawer. */
export const TRADE_MENU: readonly MenuItem[] = [
  { label: 'convert', path: '/convert' },
  { label: 'stdFutures', path: '/stdFuture' },
  { label: 'mFutures', path: '/mFutures' },
];

/** More dropdown. */
export const MORE_MENU: readonly MenuItem[] = [
  { label: 'rebate', path: '/my/rebate' },
  { label: 'helpCenter', path: '/help-center' },
];

/** Entries of the desktop account dropdown (Logout is added by the component). */
export const ACCOUNT_MENU: readonly MenuItem[] = [
  { label: 'overview', path: '/my/dashboard' },
  { label: 'account', path: '/my/assets/overview' },
  { label: 'orders', path: '/my/order/futures' },
  { label: 'referral', path: '/my/rebate' },
  { label: 'compensation', path: '/my/compensation/orders' },
  { label: 'coupons', path: '/my/coupon' },
  { label: 'settings', path: '/my/settings/preference' },
];

/** The expandable account menu of the mobile drawer (SPEC §2), Logout added by the component. */
export const MOBILE_ACCOUNT_MENU: readonly MenuItem[] = [
  { label: 'overview', path: '/my/dashboard' },
  {
    label: 'assets',
    path: '/my/assets',
    children: [
      { label: 'assetsOverview', path: '/my/assets/overview' },
      { label: 'futuresAccount', path: '/my/assets/futures-account' },
      { label: 'spotAccount', path: '/my/assets/spot-account' },
      { label: 'fundAccount', path: '/my/assets/fund-account' },
    ],
  },
  {
    label: 'orders',
    path: '/my/order',
    children: [
      { label: 'futuresOrders', path: '/my/order/futures' },
      { label: 'walletHistory', path: '/my/order/wallet-history' },
      { label: 'converterHistory', path: '/my/order/convert' },
    ],
  },
  { label: 'referral', path: '/my/rebate' },
  { label: 'compensation', path: '/my/compensation/orders' },
  { label: 'coupons', path: '/my/coupon' },
  {
    label: 'account',
    path: '/my/settings',
    children: [
      { label: 'security', path: '/my/settings/security' },
      { label: 'kyc', path: '/my/settings/kyc' },
    ],
  },
  { label: 'settings', path: '/my/settings/preference' },
];

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
