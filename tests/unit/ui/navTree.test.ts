import { describe, expect, it } from 'vitest';
import { desktopAccountMenu, drawerAccountMenu, footerColumns, NAV, settingsTabs, sideNavigation, type MenuItem, type NavNode } from '../../../src/ui/app/navTree.ts';
import { ACCOUNT_MENU, MOBILE_ACCOUNT_MENU, TRADE_MENU } from '../../../src/ui/app/menus.ts';
import { ACCOUNT_NAV } from '../../../src/ui/components/account/accountNav.ts';
import { FOOTER_COLUMNS } from '../../../src/ui/app/footerLinks.ts';
import { ROUTE_TABLE } from '../../../src/ui/app/routeTable.ts';

const pages = (items: readonly { path: string; children?: readonly { path: string; children?: unknown }[] }[]): string[] =>
  items.flatMap((i) => (i.children ? pages(i.children as typeof items) : [i.path]));

describe('one nav tree draws every menu', () => {
  it('the drawer, the desktop account menu and the side navigation list the same account pages', () => {
    const drawer = new Set(pages(MOBILE_ACCOUNT_MENU));
    expect(new Set(pages(ACCOUNT_NAV))).toEqual(drawer);
    for (const p of ACCOUNT_MENU.map((m) => m.path)) expect(drawer.has(p), p).toBe(true);
    // Each top-level desktop entry opens the first page of its group in the drawer.
    const orders = MOBILE_ACCOUNT_MENU.find((m) => m.label === 'orders');
    expect(ACCOUNT_MENU.find((m) => m.label === 'orders')?.path).toBe(orders?.children?.[0]?.path);
  });

  it('a page added to the tree appears in the drawer, the side navigation and (if marked) the desktop menu', () => {
    const extra: NavNode = { path: '/my/new', label: 'overview', side: 'navDashboard', desktop: 'overview' };
    const tree = [...NAV.account, extra];
    expect(drawerAccountMenu(tree).at(-1)).toEqual({ label: 'overview', path: '/my/new' });
    expect(sideNavigation(tree).at(-1)).toEqual({ label: 'navDashboard', path: '/my/new' });
    expect(desktopAccountMenu(tree).at(-1)).toEqual({ label: 'overview', path: '/my/new' });
  });

  it('a sideFlat group is inlined in the side navigation and kept as a group in the drawer', () => {
    const group: NavNode = { path: '/g', label: 'account', sideFlat: true, children: [{ path: '/g/a', label: 'security', side: 'navSecurity' }] };
    expect(sideNavigation([group])).toEqual([{ label: 'navSecurity', path: '/g/a' }]);
    expect(drawerAccountMenu([group])).toEqual([{ label: 'account', path: '/g', children: [{ label: 'security', path: '/g/a' }] }]);
  });

  it('every /my/settings page is in the drawer, the side navigation and the settings tab row', () => {
    const settingsRoutes = ROUTE_TABLE.filter((r) => r.path.startsWith('/my/settings/')).map((r) => r.path).sort();
    expect(settingsRoutes).toHaveLength(5);
    const inDrawer = pages(MOBILE_ACCOUNT_MENU).filter((p) => p.startsWith('/my/settings/')).sort();
    const inSide = pages(ACCOUNT_NAV).filter((p) => p.startsWith('/my/settings/')).sort();
    const tabs = settingsTabs().map((t) => t.path);
    expect(inDrawer).toEqual(settingsRoutes);
    expect(inSide).toEqual(settingsRoutes);
    expect([...tabs].sort()).toEqual(settingsRoutes);
    expect(tabs[0]).toBe('/my/settings/preference');
  });

  it('the footer products are the trade pages; every menu page has a route', () => {
    const products = FOOTER_COLUMNS.find((c) => c.title === 'colProducts')!.links.map((l) => l.to);
    for (const t of TRADE_MENU) expect(products.some((p) => p === t.path || p.startsWith(`${t.path}/`)), t.path).toBe(true);
    expect(footerColumns()).toEqual(FOOTER_COLUMNS);
    const routed = (path: string) => ROUTE_TABLE.some((r) => r.path === path || (r.path.includes(':') && path.startsWith(r.path.split('/:')[0]!)));
    for (const p of pages(MOBILE_ACCOUNT_MENU as readonly MenuItem[])) expect(routed(p), p).toBe(true);
  });
});
