import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../../src/core/appVersion.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { FOOTER_COLUMNS } from '../../../src/ui/app/footerLinks.ts';
import { activeBottomItem, pathHasPrefix } from '../../../src/ui/app/menus.ts';
import { DEFAULT_PAIR, ROUTE_TABLE, tradePairFrom } from '../../../src/ui/app/routeTable.ts';
import { SCREENS } from '../../../src/ui/app/screens.ts';

const byPath = new Map(ROUTE_TABLE.map((r) => [r.path, r]));

describe('route table (SPEC §2)', () => {
  it('has every SPEC route and /my child', () => {
    const my = ['dashboard', 'assets/overview', 'assets/futures-account', 'assets/spot-account', 'assets/fund-account',
      'order/futures', 'order/wallet-history', 'order/convert', 'rebate', 'compensation/orders', 'coupon',
      'settings/preference', 'settings/security', 'settings/password', 'settings/login-history', 'settings/kyc',
      'wallet/deposit', 'wallet/withdrawal', 'wallet/addresses'].map((c) => `/my/${c}`);
    const expected = ['/login', '/register', '/reset-password', '/', '/market', '/convert', '/copy', '/copy/trader/:id', '/help-center',
      '/help-list/:id?', '/help-detail/:id', '/mFutures', '/mFutures/:pair', '/stdFuture', '/stdFuture/:pair', '/my', ...my, '*',
      // Section roots (issue 15): redirects to their first page.
      '/my/assets', '/my/order', '/my/settings', '/my/wallet', '/trade', '/more'];
    expect([...byPath.keys()].sort()).toEqual([...expected].sort());
  });

  it('section roots redirect to the first page of their section', () => {
    const to = (p: string) => {
      const r = byPath.get(p);
      return r && 'redirect' in r ? r.redirect : null;
    };
    expect(to('/my/assets')).toBe('/my/assets/overview');
    expect(to('/my/order')).toBe('/my/order/futures');
    expect(to('/my/settings')).toBe('/my/settings/preference');
    expect(to('/my/wallet')).toBe('/my/wallet/deposit');
    expect(to('/trade')).toBe('/convert');
    expect(to('/more')).toBe('/my/rebate');
    // Every redirect lands on a screen route.
    for (const r of ROUTE_TABLE) if ('redirect' in r) expect(byPath.get(r.redirect) && 'screen' in byPath.get(r.redirect)!, r.path).toBe(true);
  });

  it('names are unique and non-empty; every screen exists in the registry', () => {
    const names = ROUTE_TABLE.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => n.length > 0)).toBe(true);
    for (const r of ROUTE_TABLE) if ('screen' in r) expect(Object.keys(SCREENS)).toContain(r.screen);
  });

  it('flags: footer on home/market/convert/copy/help, no bottom bar on login/register, followScroll on public and most /my', () => {
    const tab = ROUTE_TABLE.filter((r) => r.showTabBar).map((r) => r.path).sort();
    expect(tab).toEqual(['/', '/convert', '/copy', '/copy/trader/:id', '/help-center', '/help-detail/:id', '/help-list/:id?', '/market'].sort());
    expect(byPath.get('/login')?.showAppNav).toBe(false);
    expect(byPath.get('/register')?.showAppNav).toBe(false);
    expect(byPath.get('/market')?.showAppNav).not.toBe(false);
    for (const p of ['/', '/market', '/convert', '/help-center', '/help-list/:id?', '/help-detail/:id']) expect(byPath.get(p)?.followScroll).toBe(true);
    const my = ROUTE_TABLE.filter((r) => r.path.startsWith('/my/'));
    expect(my.filter((r) => r.followScroll).length).toBeGreaterThan(my.length / 2);
  });

  it('only login and register are guest-only', () => {
    expect(ROUTE_TABLE.filter((r) => r.guestOnly).map((r) => r.path).sort()).toEqual(['/login', '/register']);
  });

  it('redirect pair: stored pair when well-formed, else BTCUSDT', () => {
    expect(tradePairFrom(null)).toBe(DEFAULT_PAIR);
    expect(tradePairFrom('ETHUSDT')).toBe('ETHUSDT');
    fc.assert(
      fc.property(fc.string(), (s) => {
        const p = tradePairFrom(s);
        expect(p === s || p === DEFAULT_PAIR).toBe(true);
        expect(/^[A-Z0-9]+$/.test(p)).toBe(true); // never injects path characters
      }),
    );
  });
});

describe('footer links (SPEC §2)', () => {
  const all = FOOTER_COLUMNS.flatMap((c) => c.links.map((l) => l.to));
  it('contains every help-detail and help-list id plus the four product links, once each', () => {
    const detail = [15, 16, 17, 53, 85, 86, 58, 75, 80, 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10];
    const list = [23, 16, 18, 21, 22, 20, 19];
    const expected = [...detail.map((i) => `/help-detail/${i}`), ...list.map((i) => `/help-list/${i}`),
      '/convert', '/market', '/stdFuture/BTCUSDT', '/mFutures/BTCUSDT'];
    expect([...all].sort()).toEqual([...expected].sort());
  });
  it('has five columns and app version 1.1.7, the one in package.json', () => {
    expect(FOOTER_COLUMNS.map((c) => c.title)).toEqual(['colAbout', 'colProducts', 'colRiskFree', 'colSupport', 'colLegal']);
    expect(APP_VERSION).toBe('1.1.7');
    expect(APP_VERSION).toBe(pkg.version);
  });
});

describe('bottom bar active item', () => {
  it('follows the path prefix', () => {
    expect(activeBottomItem('/')).toBe('home');
    expect(activeBottomItem('/market')).toBe('market');
    expect(activeBottomItem('/mFutures/BTCUSDT')).toBe('trade');
    expect(activeBottomItem('/stdFuture')).toBe('trade');
    expect(activeBottomItem('/convert')).toBe('convert');
    expect(activeBottomItem('/my/assets/overview')).toBe('assets');
    expect(activeBottomItem('/marketing')).toBeNull(); // a prefix is a path segment, not a substring
    expect(activeBottomItem('/help-center')).toBeNull();
  });

  it('property: an item is active only if one of its prefixes matches on a segment boundary', () => {
    const seg = fc.constantFrom('market', 'my', 'convert', 'mFutures', 'stdFuture', 'x', 'assets', 'marketx');
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 4 }), (segs) => {
        const path = `/${segs.join('/')}`;
        const key = activeBottomItem(path);
        const first = segs[0];
        const expected =
          segs.length === 0 ? 'home'
          : first === 'market' ? 'market'
          : first === 'my' ? 'assets'
          : first === 'convert' ? 'convert'
          : first === 'mFutures' || first === 'stdFuture' ? 'trade'
          : null;
        expect(key).toBe(expected);
        if (key !== null) expect(pathHasPrefix(path, path)).toBe(true);
      }),
    );
  });
});
