import type { assets } from '../i18n/resources/assets.ts';
import type { settings } from '../i18n/resources/settings.ts';
import type { shell } from '../i18n/resources/shell.ts';

/**
 * THE navigation tree of the site (SPEC §2, §3): every place that lists pages draws from it, so a
 * page is added, moved or renamed once:
 * - the desktop top bar's Trade and More dropdowns and the mobile drawer ({@link menuOf}: `trade`, `more`);
 * - the desktop account dropdown ({@link desktopAccountMenu}), the mobile drawer's account menu
 *   ({@link drawerAccountMenu}) and the account centre's side navigation ({@link sideNavigation}),
 *   all from the one `account` subtree;
 * - the footer's columns ({@link footerColumns}), whose product links are the trade nodes.
 * Labels are i18n keys translated at render time: `label` in the `shell` namespace, `side` in the
 * `assets` namespace (the side navigation's wording).
 */

/** A key of the `shell` namespace. */
export type ShellKey = keyof (typeof shell)['en'];
/** A key of the `assets` namespace. */
export type AssetsKey = keyof (typeof assets)['en'];
/** A key of the `settings` namespace, namespaced (`settings:navPassword`): usable from any namespace's `t`. */
export type SettingsLabel = `settings:${keyof (typeof settings)['en'] & string}`;
/** A menu label: a `shell` key, or a namespaced settings key. */
export type NavLabel = ShellKey | SettingsLabel;
/** A side-navigation label: an `assets` key, or a namespaced settings key. */
export type SideLabel = AssetsKey | SettingsLabel;

export interface NavNode {
  /** The page; a group's path is the prefix of its children's. */
  path: string;
  /** Label in the top bar, drawer and footer. */
  label: NavLabel;
  /** Label in the account centre's side navigation (absent: not listed there). */
  side?: SideLabel;
  /** Listed in the desktop account dropdown under this label (a group: as its first page). */
  desktop?: ShellKey;
  /** The side navigation lists this group's pages at top level instead of the group. */
  sideFlat?: boolean;
  children?: readonly NavNode[];
}

/** SPEC §3 menu item as the menus render it: label key, path, optional children. */
export interface MenuItem {
  label: NavLabel;
  path: string;
  children?: readonly MenuItem[];
}

/** One entry of the account-centre side navigation; a group has children and no own page. */
export interface AccountNavItem {
  label: SideLabel;
  path: string;
  children?: readonly AccountNavItem[];
}

export interface FooterColumn {
  title: ShellKey;
  links: readonly { label: NavLabel; to: string }[];
}

const convert: NavNode = { path: '/convert', label: 'convert' };
const stdFutures: NavNode = { path: '/stdFuture', label: 'stdFutures' };
const mFutures: NavNode = { path: '/mFutures', label: 'mFutures' };
const market: NavNode = { path: '/market', label: 'market' };
const rebate: NavNode = { path: '/my/rebate', label: 'referral', side: 'navRebate', desktop: 'referral' };

const detail = (id: number): string => `/help-detail/${id}`;
const list = (id: number): string => `/help-list/${id}`;

export const NAV = {
  trade: [convert, stdFutures, mFutures],
  more: [
    { path: rebate.path, label: 'rebate' },
    { path: '/help-center', label: 'helpCenter' },
  ],
  /** The /my account centre, in the drawer's order (SPEC §2 "Account center"). */
  account: [
    { path: '/my/dashboard', label: 'overview', side: 'navDashboard', desktop: 'overview' },
    {
      path: '/my/assets',
      label: 'assets',
      side: 'navAssets',
      desktop: 'account',
      children: [
        { path: '/my/assets/overview', label: 'assetsOverview', side: 'navAssetsOverview' },
        { path: '/my/assets/futures-account', label: 'futuresAccount', side: 'navFutures' },
        { path: '/my/assets/spot-account', label: 'spotAccount', side: 'navSpot' },
        { path: '/my/assets/fund-account', label: 'fundAccount', side: 'navFund' },
      ],
    },
    {
      path: '/my/order',
      label: 'orders',
      side: 'navOrders',
      desktop: 'orders',
      children: [
        { path: '/my/order/futures', label: 'futuresOrders', side: 'navFuturesOrders' },
        { path: '/my/order/wallet-history', label: 'walletHistory', side: 'navWalletHistory' },
        { path: '/my/order/convert', label: 'converterHistory', side: 'navConvertHistory' },
      ],
    },
    rebate,
    { path: '/my/compensation/orders', label: 'compensation', side: 'navCompensation', desktop: 'compensation' },
    { path: '/my/coupon', label: 'coupons', side: 'navCoupon', desktop: 'coupons' },
    {
      path: '/my/settings',
      label: 'account',
      sideFlat: true,
      children: [
        { path: '/my/settings/security', label: 'security', side: 'navSecurity' },
        { path: '/my/settings/password', label: 'settings:navPassword', side: 'settings:navPassword' },
        { path: '/my/settings/login-history', label: 'settings:navLoginHistory', side: 'settings:navLoginHistory' },
        { path: '/my/settings/kyc', label: 'kyc', side: 'navKyc' },
      ],
    },
    { path: '/my/settings/preference', label: 'settings', side: 'navSettings', desktop: 'settings' },
  ],
  /** The /my/wallet pages (reached from the drawer's Deposit / Withdrawal buttons and the asset pages). */
  wallet: [
    { path: '/my/wallet/deposit', label: 'deposit' },
    { path: '/my/wallet/withdrawal', label: 'withdrawal' },
  ],
  /**
   * The five desktop footer columns. Every help-detail id (15, 16, 17, 53, 85, 86, 58, 75, 80,
   * 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10) and help-list id (23, 16, 18, 21, 22, 20, 19)
   * appears exactly once; tests/unit/ui/shell.routes.test.ts checks it.
   */
  footer: [
    {
      title: 'colAbout',
      links: [
        { label: 'aboutUs', path: detail(15) },
        { label: 'termsOfUse', path: detail(16) },
        { label: 'privacyPolicy', path: detail(17) },
        { label: 'contactUs', path: detail(53) },
        { label: 'announcements', path: list(23) },
      ],
    },
    {
      title: 'colProducts',
      links: [
        convert,
        market,
        { label: stdFutures.label, path: `${stdFutures.path}/BTCUSDT` },
        { label: mFutures.label, path: `${mFutures.path}/BTCUSDT` },
        { label: 'copyGuide', path: detail(85) },
        { label: 'referralProgram', path: detail(86) },
      ],
    },
    {
      title: 'colRiskFree',
      links: [
        { label: 'riskFund', path: detail(58) },
        { label: 'compensationRules', path: detail(75) },
        { label: 'lossVoucher', path: detail(80) },
        { label: 'speedVoucher', path: detail(81) },
        { label: 'compensationFaq', path: list(16) },
      ],
    },
    {
      title: 'colSupport',
      links: [
        { label: 'beginnerGuide', path: list(18) },
        { label: 'depositWithdrawHelp', path: list(21) },
        { label: 'tradingGuide', path: list(22) },
        { label: 'accountHelp', path: list(20) },
        { label: 'faq', path: list(19) },
        { label: 'fees', path: detail(82) },
        { label: 'api', path: detail(83) },
        { label: 'listing', path: detail(84) },
      ],
    },
    {
      title: 'colLegal',
      links: [
        { label: 'riskDisclosure', path: detail(8) },
        { label: 'amlPolicy', path: detail(9) },
        { label: 'lawEnforcement', path: detail(14) },
        { label: 'cookiePolicy', path: detail(13) },
        { label: 'userAgreement', path: detail(11) },
        { label: 'futuresRules', path: detail(12) },
        { label: 'disclaimer', path: detail(10) },
      ],
    },
  ],
} satisfies {
  trade: readonly NavNode[];
  more: readonly NavNode[];
  account: readonly NavNode[];
  wallet: readonly NavNode[];
  footer: readonly { title: ShellKey; links: readonly Pick<NavNode, 'label' | 'path'>[] }[];
};

/** A subtree as menu items (label, path, children). */
export function menuOf(nodes: readonly NavNode[]): MenuItem[] {
  return nodes.map((n) => (n.children ? { label: n.label, path: n.path, children: menuOf(n.children) } : { label: n.label, path: n.path }));
}

/** The mobile drawer's expandable account menu (Logout is added by the component). */
export function drawerAccountMenu(nodes: readonly NavNode[] = NAV.account): MenuItem[] {
  return menuOf(nodes);
}

/** The desktop account dropdown: the nodes marked `desktop`, a group as its first page. */
export function desktopAccountMenu(nodes: readonly NavNode[] = NAV.account): MenuItem[] {
  return nodes.flatMap((n) => (n.desktop ? [{ label: n.desktop, path: n.children?.[0]?.path ?? n.path }] : []));
}

/** The account centre's side navigation: nodes with a `side` label; `sideFlat` groups inlined. */
export function sideNavigation(nodes: readonly NavNode[] = NAV.account): AccountNavItem[] {
  return nodes.flatMap((n): AccountNavItem[] => {
    if (n.sideFlat) return sideNavigation(n.children ?? []);
    if (!n.side) return [];
    return [n.children ? { label: n.side, path: n.path, children: sideNavigation(n.children) } : { label: n.side, path: n.path }];
  });
}

/** Every page (leaf) of a subtree, in tree order. */
export function pagesOf(nodes: readonly NavNode[]): NavNode[] {
  return nodes.flatMap((n) => (n.children ? pagesOf(n.children) : [n]));
}

/**
 * The tab row of the /my/settings pages: every account page under /my/settings/, the Settings
 * (preference) page first, each with its side-navigation label. Drawn from the same tree as the
 * side navigation and the drawer, so the three always list the same settings pages.
 */
export function settingsTabs(nodes: readonly NavNode[] = NAV.account): AccountNavItem[] {
  const pages = pagesOf(nodes).filter((n) => n.path.startsWith('/my/settings/') && n.side);
  const first = pages.filter((n) => n.desktop);
  return [...first, ...pages.filter((n) => !n.desktop)].map((n) => ({ label: n.side as SideLabel, path: n.path }));
}

/**
 * Section roots a user may type or bookmark, each redirected to its first page (/my/assets →
 * /my/assets/overview, /trade → the Trade menu's first page...). Derived from the tree, so a
 * section's first page moves with it.
 */
export function sectionRoots(): { path: string; to: string }[] {
  const group = (path: string): NavNode | undefined => NAV.account.find((n) => n.path === path);
  const first = (nodes: readonly NavNode[] | undefined, fallback: string): string => (nodes && nodes[0] ? pagesOf(nodes)[0]?.path ?? fallback : fallback);
  return [
    { path: '/my/assets', to: first(group('/my/assets')?.children, '/my/assets/overview') },
    { path: '/my/order', to: first(group('/my/order')?.children, '/my/order/futures') },
    { path: '/my/settings', to: settingsTabs()[0]?.path ?? '/my/settings/preference' },
    { path: '/my/wallet', to: first(NAV.wallet, '/my/wallet/deposit') },
    { path: '/trade', to: first(NAV.trade, '/convert') },
    { path: '/more', to: first(NAV.more, '/help-center') },
  ];
}

/** The footer columns as rendered (`to` is the link target). */
export function footerColumns(columns: typeof NAV.footer = NAV.footer): FooterColumn[] {
  return columns.map((c) => ({ title: c.title, links: c.links.map((l) => ({ label: l.label, to: l.path })) }));
}
