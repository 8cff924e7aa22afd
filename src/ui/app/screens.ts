import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadScreenMachines, type ScreenMachineName } from '../../core/screenMachines.ts';

/** Loads a screen module and picks its named component export. */
export type ScreenLoader = () => Promise<{ default: ComponentType }>;

/**
 * Adapts a module with a named export to what `React.lazy` wants. `machines`: the core's screen
 * machines the screen holds (src/core/screenMachines.ts), loaded beside its module so the screen
 * renders with its actors at once (in the production build a row is its own chunk).
 */
function named<M, K extends keyof M>(load: () => Promise<M>, key: K, machines: readonly ScreenMachineName[] = []): ScreenLoader {
  return () => Promise.all([load(), machines.length ? loadScreenMachines(machines) : null]).then(([m]) => ({ default: m[key] as ComponentType }));
}

const TRADE_MACHINES: ScreenMachineName[] = ['order', 'close', 'tpsl'];

/**
 * The screen registry: every screen the route table refers to, by name. `null` means the
 * screen module has not been written yet, and the route renders the NotYetAvailable panel
 * inside the real shell.
 *
 * To ship a screen: create src/ui/screens/<folder>/<Name>Screen.tsx exporting `<Name>Screen`,
 * then replace its `null` here with `named(() => import('...'), '<Name>Screen')`. One line.
 * (A missing module cannot be referenced at all: Vite resolves `import()` at build time.)
 */
export const SCREENS = {
  login: named(() => import('../screens/login/LoginScreen.tsx'), 'LoginScreen'),
  register: named(() => import('../screens/register/RegisterScreen.tsx'), 'RegisterScreen'),
  resetPassword: named(() => import('../screens/reset-password/ResetPasswordScreen.tsx'), 'ResetPasswordScreen'),
  home: named(() => import('../screens/home/HomeScreen.tsx'), 'HomeScreen'),
  market: named(() => import('../screens/market/MarketScreen.tsx'), 'MarketScreen'),
  convert: named(() => import('../screens/convert/ConvertScreen.tsx'), 'ConvertScreen', ['convert']),
  copy: named(() => import('../screens/copy/CopyScreen.tsx'), 'CopyScreen', ['copyFollow', 'copyUnfollow', 'copyApply']),
  copyTrader: named(() => import('../screens/copy/CopyTraderScreen.tsx'), 'CopyTraderScreen', ['copyFollow', 'copyUnfollow']),
  helpCenter: named(() => import('../screens/help-center/HelpCenterScreen.tsx'), 'HelpCenterScreen'),
  helpList: named(() => import('../screens/help-center/HelpListScreen.tsx'), 'HelpListScreen'),
  helpDetail: named(() => import('../screens/help-center/HelpDetailScreen.tsx'), 'HelpDetailScreen'),
  mFutures: named(() => import('../screens/trade/TradeScreen.tsx'), 'MFuturesScreen', TRADE_MACHINES),
  stdFuture: named(() => import('../screens/trade/TradeScreen.tsx'), 'StdFutureScreen', TRADE_MACHINES),
  myDashboard: named(() => import('../screens/dashboard/DashboardScreen.tsx'), 'DashboardScreen'),
  assetsOverview: named(() => import('../screens/assets/AssetsOverviewScreen.tsx'), 'AssetsOverviewScreen'),
  assetsFutures: named(() => import('../screens/assets/FuturesAccountScreen.tsx'), 'FuturesAccountScreen'),
  assetsSpot: named(() => import('../screens/assets/SpotAccountScreen.tsx'), 'SpotAccountScreen'),
  assetsFund: named(() => import('../screens/assets/FundAccountScreen.tsx'), 'FundAccountScreen'),
  orderFutures: named(() => import('../screens/orders/FuturesOrdersScreen.tsx'), 'FuturesOrdersScreen'),
  orderWalletHistory: named(() => import('../screens/wallet/WalletHistoryScreen.tsx'), 'WalletHistoryScreen'),
  orderConvert: named(() => import('../screens/convert/ConvertHistoryScreen.tsx'), 'ConvertHistoryScreen'),
  rebate: named(() => import('../screens/rebate/RebateScreen.tsx'), 'RebateScreen'),
  compensationOrders: named(() => import('../screens/compensation/CompensationOrdersScreen.tsx'), 'CompensationOrdersScreen', ['compensation']),
  coupon: named(() => import('../screens/coupon/CouponScreen.tsx'), 'CouponScreen', ['coupon']),
  settingsPreference: named(() => import('../screens/settings/PreferenceScreen.tsx'), 'PreferenceScreen'),
  settingsSecurity: named(() => import('../screens/settings/SecurityScreen.tsx'), 'SecurityScreen'),
  settingsPassword: named(() => import('../screens/settings/PasswordScreen.tsx'), 'PasswordScreen'),
  settingsLoginHistory: named(() => import('../screens/settings/LoginHistoryScreen.tsx'), 'LoginHistoryScreen'),
  settingsKyc: named(() => import('../screens/kyc/KycScreen.tsx'), 'KycScreen', ['kyc']),
  walletDeposit: named(() => import('../screens/wallet/DepositScreen.tsx'), 'DepositScreen', ['deposit']),
  walletWithdrawal: named(() => import('../screens/wallet/WithdrawalScreen.tsx'), 'WithdrawalScreen', ['withdrawal']),
  walletAddresses: named(() => import('../screens/wallet/AddressBookScreen.tsx'), 'AddressBookScreen', ['addressBook']),
  notFound: named(() => import('../screens/not-found/NotFoundScreen.tsx'), 'NotFoundScreen'),
} satisfies Record<string, ScreenLoader | null>;

export type ScreenName = keyof typeof SCREENS;

const cache = new Map<ScreenName, LazyExoticComponent<ComponentType>>();
const started = new Map<ScreenName, ReturnType<ScreenLoader>>();

/**
 * Starts loading a screen's module (and its machines) once; the screen's lazy component waits on
 * the same promise. main.tsx calls it for the first route before the language's texts are here,
 * so the route's chunk loads beside them instead of after the first render (issue 30).
 */
export function preloadScreen(name: ScreenName): ReturnType<ScreenLoader> | null {
  const loader: ScreenLoader | null = SCREENS[name];
  if (!loader) return null;
  let p = started.get(name);
  if (!p) {
    p = loader();
    started.set(name, p);
  }
  return p;
}

/**
 * The lazily loaded component for a screen, or null when the registry has none yet. Cached so
 * a route keeps one component identity across renders (no remount on re-render).
 */
export function lazyScreen(name: ScreenName, registry: Record<string, ScreenLoader | null> = SCREENS): LazyExoticComponent<ComponentType> | null {
  const loader = registry[name];
  if (!loader) return null;
  const hit = cache.get(name);
  if (hit && registry === SCREENS) return hit;
  if (registry !== SCREENS) return lazy(loader);
  const comp = lazy(() => preloadScreen(name) ?? loader());
  cache.set(name, comp);
  return comp;
}
