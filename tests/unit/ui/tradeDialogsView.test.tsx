// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { Order, Position } from '../../../src/protocol/trading.ts';
import { MFuturesScreen } from '../../../src/ui/screens/trade/TradeScreen.tsx';
import { renderMarketScreen, type MarketHarness } from './marketHarness.tsx';

/**
 * Open dialogs as view state (issue 16): the edit-order dialog is `trade.editOrder` = order id in
 * the core's view store (set by the Edit button, null again on cancel), and a value naming an
 * order that is not open, or no order at all (a replayed log is external data), shows no dialog.
 * The close and TP/SL dialogs are the close / tpsl machines' state (their open intents carry the
 * position); a dialog whose position is gone is not shown and is cancelled.
 */

afterEach(cleanup);

const POSITION: Position = {
  id: 'p1', symbol: 'BTCUSDT', contract: 'perp', side: 'long', qty: 0.01, entryPrice: 65000, markPrice: 65100, liquidationPrice: 58825.5, margin: '65.000000',
  marginRatio: 0.12, unrealizedPnl: '1.000000', returnPct: 1.54, tp: null, sl: null, leverage: 10, openedAt: 1, updatedAt: 1,
};
const ORDER: Order = {
  id: 'o1', clientOrderId: 'id1', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 64000, qty: 0.01, leverage: 5, status: 'pending',
  executedQty: 0, avgPrice: 0, fee: '0', realizedPnl: '0', margin: '128', positionId: null, tp: null, sl: null, createdAt: 1, updatedAt: 1,
};

function renderTrade(): MarketHarness {
  const empty = { list: [], total: 0, page: 1, pageSize: 50 };
  return renderMarketScreen({
    url: '/mFutures/BTCUSDT',
    path: '/mFutures/:pair',
    screen: <MFuturesScreen />,
    storage: { token: 'tok' },
    script: (http) => {
      http.on('GET', '/wallet/balances', envelope(200, 'ok', [{ wallet: 'perp', coin: 'USDT', available: '1000.000000', frozen: '0', total: '1000.000000' }]));
      http.on('GET', '/trade/positions', envelope(200, 'ok', [POSITION]));
      http.on('GET', '/trade/orders/open', envelope(200, 'ok', { ...empty, list: [ORDER], total: 1 }));
      http.on('GET', '/trade/orders/history', envelope(200, 'ok', empty));
      http.on('GET', '/trade/fills', envelope(200, 'ok', empty));
      http.on('GET', '/wallet/ledger', envelope(200, 'ok', empty));
      http.on('GET', '/market/trades', envelope(200, 'ok', []));
      http.on('GET', '/market/depth', envelope(200, 'ok', { symbol: 'BTCUSDT', seq: 1, bids: [], asks: [], ts: 1 }));
    },
  });
}

const settle = () =>
  act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });

describe('trade dialogs as view state', () => {
  it('the edit-order dialog is trade.editOrder: opened by Edit, null on cancel, only for an open order', async () => {
    const h = renderTrade();
    act(() => h.core.view.set('trade.accountTab', 'openOrders'));
    const row = await screen.findByTestId('open-order-row');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    });
    expect(h.core.view.get('trade.editOrder')).toBe('o1');
    const dialog = await screen.findByRole('dialog', { name: 'Edit order · BTCUSDT' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    expect(h.core.view.get('trade.editOrder')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // a replay applying the recorded value opens it again; values naming no open order show nothing
    act(() => h.core.view.apply('trade.editOrder', 'o1'));
    expect(await screen.findByRole('dialog', { name: 'Edit order · BTCUSDT' })).toBeTruthy();
    for (const bad of ['o-gone', 42, { id: 'o1' }, '']) {
      act(() => h.core.view.apply('trade.editOrder', bad));
      await settle();
      expect(screen.queryByRole('dialog')).toBeNull();
    }
  });

  it('a TP/SL dialog whose position is gone (closed, or not held) is not shown', async () => {
    const h = renderTrade();
    const row = await screen.findByTestId('position-row');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'TP/SL' }));
    });
    expect(await screen.findByRole('dialog')).toBeTruthy();
    const user = h.sockets.sockets.filter((x) => x.url.includes('/ws/user')).at(-1);
    if (!user) throw new Error('user socket not opened');
    act(() => user.open());
    act(() => user.frame({ type: 'position', data: { ...POSITION, closed: true } }));
    await waitFor(() => expect(screen.queryByTestId('position-row')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
