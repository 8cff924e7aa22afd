import { sectionRoots } from './navTree.ts';
import type { ScreenName } from './screens.ts';

/**
 * SPEC §2 route flags, carried as the react-router `handle` of each route.
 * - showTabBar: the desktop footer is shown.
 * - showAppNav: the mobile bottom bar is shown unless this is `false`.
 * - followScroll: the bottom bar hides on scroll down and returns on scroll up.
 */
export interface RouteFlags {
  showTabBar?: boolean;
  showAppNav?: boolean;
  followScroll?: boolean;
}

/** What every route carries; a route without `name` is logged as a warning (SPEC §8). */
export interface RouteHandle extends RouteFlags {
  name?: string;
}

/** One row of the route table: a screen, or a redirect. */
export type RouteDef = RouteFlags & {
  path: string;
  name: string;
  /** Only guests may enter (Login, Register); logged-in users go to '/'. */
  guestOnly?: boolean;
} & (
    | { screen: ScreenName }
    /** Redirect to a fixed path. */
    | { redirect: string }
    /** Redirect to `${base}/${stored trade_pair}`. */
    | { pairRedirect: string }
  );

/** '/my/assets' → 'myAssetsRoot'. */
function rootName(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return `${parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('')}Root`;
}

const PUBLIC = { showTabBar: true, followScroll: true } as const;
const MY = { followScroll: true } as const;

/**
 * The single route table of the app (SPEC §2). Order matters only for readability:
 * react-router ranks paths itself. `*` must stay last by convention.
 */
export const ROUTE_TABLE: readonly RouteDef[] = [
  { path: '/login', name: 'login', screen: 'login', showAppNav: false, guestOnly: true },
  { path: '/register', name: 'register', screen: 'register', showAppNav: false, guestOnly: true },
  { path: '/reset-password', name: 'resetPassword', screen: 'resetPassword', showAppNav: false },
  { path: '/', name: 'home', screen: 'home', ...PUBLIC },
  { path: '/market', name: 'market', screen: 'market', ...PUBLIC },
  { path: '/convert', name: 'convert', screen: 'convert', ...PUBLIC },
  { path: '/copy', name: 'copy', screen: 'copy', showTabBar: true },
  { path: '/copy/trader/:id', name: 'copyTrader', screen: 'copyTrader', showTabBar: true },
  { path: '/help-center', name: 'helpCenter', screen: 'helpCenter', ...PUBLIC },
  { path: '/help-list/:id?', name: 'helpList', screen: 'helpList', ...PUBLIC },
  { path: '/help-detail/:id', name: 'helpDetail', screen: 'helpDetail', ...PUBLIC },
  { path: '/mFutures', name: 'mFuturesRedirect', pairRedirect: '/mFutures' },
  { path: '/mFutures/:pair', name: 'mFutures', screen: 'mFutures' },
  { path: '/stdFuture', name: 'stdFutureRedirect', pairRedirect: '/stdFuture' },
  { path: '/stdFuture/:pair', name: 'stdFuture', screen: 'stdFuture' },
  { path: '/my', name: 'my', redirect: '/my/dashboard' },
  // Section roots a user may type or bookmark open their first page (issue 15).
  ...sectionRoots().map((r) => ({ path: r.path, name: rootName(r.path), redirect: r.to })),
  { path: '/my/dashboard', name: 'myDashboard', screen: 'myDashboard', ...MY },
  { path: '/my/assets/overview', name: 'assetsOverview', screen: 'assetsOverview', ...MY },
  { path: '/my/assets/futures-account', name: 'assetsFutures', screen: 'assetsFutures', ...MY },
  { path: '/my/assets/spot-account', name: 'assetsSpot', screen: 'assetsSpot', ...MY },
  { path: '/my/assets/fund-account', name: 'assetsFund', screen: 'assetsFund', ...MY },
  { path: '/my/order/futures', name: 'orderFutures', screen: 'orderFutures', ...MY },
  { path: '/my/order/wallet-history', name: 'orderWalletHistory', screen: 'orderWalletHistory', ...MY },
  { path: '/my/order/convert', name: 'orderConvert', screen: 'orderConvert', ...MY },
  { path: '/my/rebate', name: 'rebate', screen: 'rebate', ...MY },
  { path: '/my/compensation/orders', name: 'compensationOrders', screen: 'compensationOrders', ...MY },
  { path: '/my/coupon', name: 'coupon', screen: 'coupon', ...MY },
  { path: '/my/settings/preference', name: 'settingsPreference', screen: 'settingsPreference', ...MY },
  { path: '/my/settings/security', name: 'settingsSecurity', screen: 'settingsSecurity', ...MY },
  { path: '/my/settings/password', name: 'settingsPassword', screen: 'settingsPassword' },
  { path: '/my/settings/login-history', name: 'settingsLoginHistory', screen: 'settingsLoginHistory', ...MY },
  { path: '/my/settings/kyc', name: 'settingsKyc', screen: 'settingsKyc' },
  { path: '/my/wallet/deposit', name: 'walletDeposit', screen: 'walletDeposit' },
  { path: '/my/wallet/withdrawal', name: 'walletWithdrawal', screen: 'walletWithdrawal' },
  { path: '/my/wallet/addresses', name: 'walletAddresses', screen: 'walletAddresses' },
  { path: '*', name: 'notFound', screen: 'notFound' },
];

/** The default pair of the /mFutures and /stdFuture redirects (SPEC §3, §9; the stored one: src/core/devicePrefs.ts). */
export const DEFAULT_PAIR = 'BTCUSDT';

/** The pair for /mFutures and /stdFuture redirects: the stored one if it looks like a pair. */
export function tradePairFrom(stored: string | null): string {
  return stored != null && /^[A-Z0-9]{2,20}$/.test(stored) ? stored : DEFAULT_PAIR;
}
