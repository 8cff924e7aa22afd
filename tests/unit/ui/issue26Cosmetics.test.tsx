// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { CopyTrader } from '../../../src/protocol/copy.ts';
import { CopyScreen } from '../../../src/ui/screens/copy/CopyScreen.tsx';
import { DashboardScreen } from '../../../src/ui/screens/dashboard/DashboardScreen.tsx';
import { HelpCenterScreen } from '../../../src/ui/screens/help-center/HelpCenterScreen.tsx';
import { MFuturesScreen } from '../../../src/ui/screens/trade/TradeScreen.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';
import { renderMarketScreen } from './marketHarness.tsx';

/**
 * Issue 26, the cosmetics a jsdom render can see (texts, elements, classes; the layout ones are
 * measured in tests/e2e/layout26.spec.ts; the below-minimum deposit's confirmations are in
 * moneyScreens.test.tsx): the copied orders' empty state and the list's full-width sparklines, the
 * help search's marked term, the unknown-pair page, one title style for the dashboard's cards.
 */

installClickClock();

const EMPTY_PAGE = { list: [], total: 0, page: 1, pageSize: 10 };

const TRADER: CopyTrader = {
  id: 9_000_001, nickname: 'Aurora Quant', bio: 'Trend', simulated: true, roi7: '1.20', roi30: '1.20', roi90: '1.20', pnl7: '120.000000', pnl30: '120.000000', pnl90: '120.000000',
  winRate: '50.00', followers: 0, aum: '0.000000', series: ['0.000000', '-3.000000', '12.500000'], seriesTimes: [1, 2, 3], historyDays: 1, since: 1,
};

describe('/copy', () => {
  it('says there are no copied orders yet, and the sparkline spans its card', async () => {
    const h = renderAssets({
      path: '/copy',
      screen: <CopyScreen />,
      script: (http) => {
        http.on('GET', '/copy/traders', envelope(200, 'success', [TRADER]));
        http.on('GET', '/copy/follows', envelope(200, 'success', []));
        http.on('GET', '/copy/positions', envelope(200, 'success', []));
        http.on('GET', '/copy/orders', envelope(200, 'success', EMPTY_PAGE));
        http.on('GET', '/copy/apply', envelope(200, 'success', null));
      },
    });
    expect((await screen.findByTestId('cp-my-orders-empty')).textContent).toBe('No copied orders yet. Each order the trader places is listed here, copied or skipped with the reason.');
    const chart = within(await screen.findByTestId(`cp-trader-${TRADER.id}`)).getByRole('img', { name: /Aurora Quant/ });
    // As wide as the card (it was a fixed 120 px, a third of it).
    expect(chart.getAttribute('width')).toBe('100%');
    h.core.stop();
  });
});

describe('help search', () => {
  function search(q: string, hits: { id: number; categoryId: number; title: string; excerpt: string }[]) {
    return renderAssets({
      path: '/help-center',
      url: `/help-center?q=${encodeURIComponent(q)}`,
      screen: <HelpCenterScreen />,
      script: (http) => {
        http.on('GET', '/help/categories', envelope(200, 'success', []));
        http.on('GET', '/help/search', envelope(200, 'success', { list: hits, total: hits.length }));
      },
    });
  }

  it('marks every occurrence of the term in titles and excerpts, whatever its case', async () => {
    const h = search('fee', [{ id: 8, categoryId: 21, title: 'Fees', excerpt: 'Trading fees: a taker FEE and a maker fee.' }]);
    const hit = await screen.findByTestId('help-hit');
    const marks = [...hit.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['Fee', 'fee', 'FEE', 'fee']);
    expect(within(hit).getByRole('link').textContent).toBe('Fees');
    expect(hit.querySelector('p')?.textContent).toBe('Trading fees: a taker FEE and a maker fee.');
    h.core.stop();
  });

  it("marks the user's text literally and never turns it into HTML", async () => {
    const h = search('<b>a.c', [{ id: 9, categoryId: 21, title: 'Tags', excerpt: 'abc <b>a.c</b> and <b>abc' }]);
    const hit = await screen.findByTestId('help-hit');
    expect([...hit.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['<b>a.c']);
    expect(hit.querySelector('b')).toBeNull();
    expect(hit.querySelector('p')?.textContent).toBe('abc <b>a.c</b> and <b>abc');
    h.core.stop();
  });
});

describe('a trade URL with an unknown pair', () => {
  it('is a page with a heading, what happened, the market list and listed pairs', async () => {
    const h = renderMarketScreen({ url: '/mFutures/NOPEUSDT', path: '/mFutures/:pair', screen: <MFuturesScreen /> });
    const page = await screen.findByTestId('unknown-pair');
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe('Pair not found');
    expect(page.textContent).toContain('NOPEUSDT is not listed for USDT-M Perpetual. Pick a listed pair or open the market list.');
    expect(within(page).getByRole('link', { name: 'Open the market list' }).getAttribute('href')).toBe('/market');
    const listed = within(within(page).getByRole('navigation', { name: 'Listed pairs' })).getAllByRole('link');
    expect(listed.length).toBeGreaterThan(0);
    for (const a of listed) expect(a.getAttribute('href')).toBe(`/mFutures/${a.textContent}`);
    // Only pairs of this contract: SPXUSDT is a standard-futures pair in the fixtures.
    expect(listed.map((a) => a.textContent)).not.toContain('SPXUSDT');
    h.core.stop();
  });
});

describe('/my/dashboard', () => {
  it('titles every card with the one card title style', async () => {
    const summary = { dayStart: 0, todayRealizedPnl: '0.000000', todayFees: '0.000000', todayTrades: 0, usableVouchers: 2, demoCredit: '20000.000000' };
    const h = renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      script: (http) => {
        http.on('GET', '/dashboard/summary', envelope(200, 'success', summary));
        http.on('GET', '/trade/orders/history', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 5 }));
      },
    });
    await screen.findByTestId('dash-demo-credit');
    const cards = [screen.getByTestId('dash-demo-credit'), ...screen.getByRole('group', { name: 'At a glance' }).querySelectorAll(':scope > section')];
    expect(cards.length).toBe(6);
    for (const card of cards) {
      const title = card.querySelector('h2');
      expect(title?.className, title?.textContent ?? '').toBe('acct-card__title');
    }
    h.core.stop();
  });
});
