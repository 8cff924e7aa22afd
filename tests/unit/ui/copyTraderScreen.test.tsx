// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../src/format/date.ts';
import { envelope } from '../../../src/ports/fakes.ts';
import type { CopyTraderDetail } from '../../../src/protocol/copy.ts';
import { CopyTraderScreen } from '../../../src/ui/screens/copy/CopyTraderScreen.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';

installClickClock();

const DAY = 86_400_000;
const T = 1_700_000_000_000;

function trader(over: Partial<CopyTraderDetail>): CopyTraderDetail {
  return {
    id: 9_000_001, nickname: 'Aurora Quant', bio: 'Trend', simulated: true,
    roi7: '1.20', roi30: '1.20', roi90: '1.20', pnl7: '120.000000', pnl30: '120.000000', pnl90: '120.000000',
    winRate: '50.00', followers: 0, aum: '0.000000',
    series: ['0.000000', '-3.000000', '1250.500000', '120.000000'], seriesTimes: [T - 2 * DAY, T - 2 * DAY, T - DAY, T],
    historyDays: 1, since: T - DAY, positions: [], myFollowId: null, ...over,
  };
}

function show(tr: CopyTraderDetail) {
  return renderAssets({
    path: '/copy/trader/:id',
    url: `/copy/trader/${tr.id}`,
    screen: <CopyTraderScreen />,
    script: (http) => {
      http.on('GET', `/copy/traders/${tr.id}`, envelope(200, 'success', tr));
      http.on('GET', `/copy/traders/${tr.id}/history`, envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 10 }));
      http.on('GET', '/copy/follows', envelope(200, 'success', []));
      http.on('GET', '/copy/positions', envelope(200, 'success', []));
      http.on('GET', '/copy/orders', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 10 }));
    },
  });
}

/** The trader page (issue 26, Minor 19): windows the history does not cover, and the PnL chart's axes. */
describe('CopyTraderScreen figures and chart', () => {
  it('a trader active one day shows the 7D figures and "—" for 30D and 90D, with the history length', async () => {
    show(trader({}));
    await screen.findByTestId('cp-trader-name');
    expect(screen.getByTestId('cp-fig-roi7').textContent).toBe('+1.20%');
    expect(screen.getByTestId('cp-fig-pnl7').textContent).toBe('+120.00');
    for (const k of ['roi30', 'roi90', 'pnl30', 'pnl90']) expect(screen.getByTestId(`cp-fig-${k}`).textContent).toBe('—Not enough history yet');
    expect(screen.getByTestId('cp-history-note').textContent).toContain('Days of trading history: 1.');
  });

  it('a trader with more than 30 days of history shows every window and no note', async () => {
    const { unmount } = show(trader({ historyDays: 40, pnl30: '200.000000', pnl90: '300.000000' }));
    await screen.findByTestId('cp-trader-name');
    expect(screen.getByTestId('cp-fig-pnl30').textContent).toBe('+200.00');
    expect(screen.getByTestId('cp-fig-pnl90').textContent).toBe('+300.00');
    unmount();
    show(trader({ historyDays: 31, pnl30: '200.000000', pnl90: '300.000000' }));
    await screen.findByTestId('cp-trader-name');
    expect(screen.getByTestId('cp-fig-pnl90').textContent).toBe('+300.00');
    expect(screen.queryByTestId('cp-history-note')).toBeNull();
  });

  it('the PnL chart has its value axis (highest, 0, lowest) and its first and last dates', async () => {
    show(trader({}));
    const chart = await screen.findByTestId('cp-pnl-chart');
    await waitFor(() => expect(within(chart).getAllByRole('listitem').map((e) => e.textContent)).toEqual(['+1,250.50', '0.00', '-3.00']));
    expect(within(chart).getByText(formatDateTime(T - 2 * DAY).slice(0, 10))).toBeTruthy();
    expect(within(chart).getByText(formatDateTime(T).slice(0, 10))).toBeTruthy();
  });
});
