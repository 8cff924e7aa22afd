// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import type { LedgerEntry, Order } from '../../../src/protocol/trading.ts';
import { FuturesOrdersScreen } from '../../../src/ui/screens/orders/FuturesOrdersScreen.tsx';
import { renderAssets, installClickClock } from './assetsHarness.tsx';

installClickClock();

function order(i: number, over: Partial<Order> = {}): Order {
  return {
    id: `o${i}`, clientOrderId: `c${i}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 60000 + i, qty: 0.01, leverage: 10,
    status: 'pending', executedQty: 0, avgPrice: 0, fee: '0', realizedPnl: '0', margin: '60.000000', positionId: null, tp: null, sl: null, createdAt: 1_700_000_000_000 + i, updatedAt: 1_700_000_000_000 + i,
    ...over,
  };
}

function ledger(i: number, over: Partial<LedgerEntry> = {}): LedgerEntry {
  return { id: i, wallet: 'fund', coin: 'USDT', type: 'WALLET_TRANSFER_OUT', amount: '-100.000000', balanceAfter: '9900.000000', ref: 'r', symbol: '', time: 1_700_000_000_000, ...over };
}

/** A paged endpoint over `rows`, recording nothing itself (the scripted Http records requests). */
const paged = <T,>(rows: T[]) => (req: HttpRequest) => {
  const page = Number(req.query?.page ?? 1);
  const pageSize = Number(req.query?.pageSize ?? 10);
  return envelope(200, 'success', { list: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length, page, pageSize });
};

function renderOrders(script?: Parameters<typeof renderAssets>[0]['script'], width?: number) {
  return renderAssets({
    path: '/my/order/futures',
    screen: <FuturesOrdersScreen />,
    width,
    script: (http) => {
      http.on('GET', '/market/symbols', envelope(200, 'success', [{ symbol: 'BTCUSDT' }, { symbol: 'ETHUSDT' }]));
      http.on('GET', '/trade/orders/open', paged(Array.from({ length: 23 }, (_, i) => order(i))));
      http.on('GET', '/trade/orders/history', paged([order(1, { status: 'filled', executedQty: 0.01, avgPrice: 60001 })]));
      http.on('GET', '/trade/fills', paged([]));
      http.on('GET', '/wallet/ledger', paged([ledger(1), ledger(2, { wallet: 'perp', type: 'WALLET_TRANSFER_IN', amount: '100.000000', balanceAfter: '1100.000000' })]));
      script?.(http);
    },
  });
}

const queries = (h: ReturnType<typeof renderAssets>, path: string) => h.http.requests.filter((r) => r.path === path).map((r) => r.query);

describe('futures orders', () => {
  it('pages open orders with page/pageSize query params and shows "Page n of m"', async () => {
    const h = renderOrders();
    expect(await screen.findAllByTestId('history-row')).toHaveLength(10);
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 3'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(3));
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect(queries(h, '/trade/orders/open')).toEqual([
      { page: 1, pageSize: 10 },
      { page: 2, pageSize: 10 },
      { page: 3, pageSize: 10 },
    ]);
  });

  it('filters go to the query (contract, pair, kind, date range) and reset the page to 1', async () => {
    const h = renderOrders();
    await screen.findAllByTestId('history-row');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 3'));
    fireEvent.change(screen.getByLabelText('Contract'), { target: { value: 'std' } });
    await waitFor(() => expect(queries(h, '/trade/orders/open').at(-1)).toEqual({ page: 1, pageSize: 10, contract: 'std' }));
    fireEvent.change(await screen.findByRole('option', { name: 'ETHUSDT' }).then((o) => o.closest('select') as HTMLSelectElement), { target: { value: 'ETHUSDT' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'limitTakeProfit' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2024-03-02' } });
    await waitFor(() =>
      expect(queries(h, '/trade/orders/open').at(-1)).toEqual({
        page: 1, pageSize: 10, contract: 'std', symbol: 'ETHUSDT', type: 'limitTakeProfit',
        from: new Date(2024, 2, 1).getTime(), to: new Date(2024, 2, 3).getTime() - 1,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(queries(h, '/trade/orders/open').at(-1)).toEqual({ page: 1, pageSize: 10 }));
  });

  it('order history has a status filter; kinds and statuses are translated', async () => {
    const h = renderOrders();
    fireEvent.click(await screen.findByRole('tab', { name: 'Order history' }));
    const row = await screen.findByTestId('history-row');
    expect(row.textContent).toContain('Limit open');
    expect(row.textContent).toContain('Filled');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'canceled' } });
    await waitFor(() => expect(queries(h, '/trade/orders/history').at(-1)).toEqual({ page: 1, pageSize: 10, status: 'canceled' }));
  });

  it('cancel posts the order id and reloads the open orders; an order frame reloads too', async () => {
    const h = renderOrders((http) => http.on('POST', '/trade/order/cancel', envelope(200, 'Order canceled')));
    const rows = await screen.findAllByTestId('history-row');
    fireEvent.click(within(rows[0] as HTMLElement).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(queries(h, '/trade/orders/open')).toHaveLength(2));
    expect(h.http.requests.filter((r) => r.path === '/trade/order/cancel').map((r) => r.body)).toEqual([{ orderId: 'o0' }]);
    expect(await screen.findByText('Order canceled')).toBeTruthy();
    h.push({ type: 'order', data: order(99) });
    await waitFor(() => expect(queries(h, '/trade/orders/open')).toHaveLength(3));
  });

  it('transaction history: ledger types translated (ko), contract filter becomes the wallet, phone cards', async () => {
    const h = renderAssets({
      path: '/my/order/futures',
      screen: <FuturesOrdersScreen />,
      lang: 'ko',
      width: 390,
      script: (http) => {
        http.on('GET', '/trade/orders/open', paged([]));
        http.on('GET', '/wallet/ledger', paged([ledger(1), ledger(2, { wallet: 'perp', type: 'WALLET_TRANSFER_IN', amount: '100.000000' })]));
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: '거래 명세' }));
    const cards = await screen.findAllByTestId('history-row');
    expect(cards[0]?.tagName).toBe('LI');
    expect(cards[0]?.textContent).toContain('이체 출금');
    expect(cards[1]?.textContent).toContain('이체 입금');
    expect(cards[1]?.textContent).toContain('100.00');
    fireEvent.change(screen.getByLabelText('계약'), { target: { value: 'perp' } });
    fireEvent.change(screen.getByLabelText('유형'), { target: { value: 'FUNDING_FEE' } });
    await waitFor(() => expect(queries(h, '/wallet/ledger').at(-1)).toEqual({ page: 1, pageSize: 10, wallet: 'perp', type: 'FUNDING_FEE' }));
  });
});

describe('conditional orders on /my/order/futures (issue 26)', () => {
  const stop = order(90, { kind: 'stopMarket', side: 'sell', price: 0, triggerPrice: 58_000, triggerBy: 'mark', triggered: false });
  const stopLimit = order(91, { kind: 'stopLimit', side: 'buy', price: 70_100, triggerPrice: 70_000, triggerBy: 'last', triggered: false });
  const tp = order(92, { kind: 'limitTakeProfit', side: 'sell', price: 75_000 });
  const fills = [
    { id: 1, orderId: 'o1', positionId: 'p1', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 60_000, qty: 0.01, fee: '0.120000', realizedPnl: '0', time: 1_700_000_000_000, liquidity: 'maker' },
    { id: 2, orderId: 'o2', positionId: 'p1', symbol: 'BTCUSDT', contract: 'perp', kind: 'stopMarket', side: 'sell', price: 58_000, qty: 0.01, fee: '0.290000', realizedPnl: '-20', time: 1_700_000_000_001, liquidity: 'taker' },
  ];
  const render = (edited?: (body: Record<string, unknown>) => ReturnType<typeof envelope>) =>
    renderOrders((http) => {
      http.on('GET', '/market/symbols', envelope(200, 'success', [{ symbol: 'BTCUSDT', base: 'BTC', pricePrecision: 1, qtyPrecision: 3 }]));
      http.on('GET', '/trade/orders/open', paged([stop, stopLimit, tp]));
      http.on('GET', '/trade/fills', paged(fills));
      if (edited) http.on('POST', '/trade/order/edit', (req) => edited(req.body as Record<string, unknown>));
    });
  const cell = (row: HTMLElement, header: string) => {
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    return row.querySelectorAll('td')[headers.indexOf(header)]?.textContent;
  };

  it('shows the trigger and what it watches, "Market" as a stop-market\'s price, and no raw keys', async () => {
    render();
    const rows = await screen.findAllByTestId('history-row');
    expect(rows).toHaveLength(3);
    expect([cell(rows[0]!, 'Type'), cell(rows[0]!, 'Trigger'), cell(rows[0]!, 'Price'), cell(rows[0]!, 'Avg. price')]).toEqual(['Stop market', '58,000.00 · Mark', 'Market', '--']);
    expect([cell(rows[1]!, 'Type'), cell(rows[1]!, 'Trigger'), cell(rows[1]!, 'Price')]).toEqual(['Stop limit', '70,000.00 · Last', '70,100.00']);
    expect([cell(rows[2]!, 'Trigger'), cell(rows[2]!, 'Price')]).toEqual(['75,000.00 · Mark', '75,000.00']);
    expect(document.body.textContent).not.toMatch(/kind_|triggerBy_/);
    // the type filter names every kind
    const options = within(screen.getByLabelText('Type')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(expect.arrayContaining(['Stop market', 'Stop limit', 'Limit close']));
    expect(options.join()).not.toMatch(/kind_/);
  });

  it('edits a stop-market\'s trigger and size (no price field), and the toast names the trigger', async () => {
    const bodies: Record<string, unknown>[] = [];
    render((b) => (bodies.push(b), envelope(200, 'ok', { ...stop, triggerPrice: 57_500, qty: 0.02 })));
    const rows = await screen.findAllByTestId('history-row');
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('edit-order-price')).toBeNull();
    expect(within(dialog).getByLabelText('Trigger price (mark price)')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('edit-order-trigger'), { target: { value: '57500' } });
    fireEvent.change(within(dialog).getByLabelText('Quantity (BTC)'), { target: { value: '0.02' } });
    fireEvent.click(within(dialog).getByTestId('edit-order-save'));
    await waitFor(() => expect(bodies).toEqual([{ orderId: 'o90', triggerPrice: '57500', qty: '0.02' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(toast.getHistory().map((x) => ('title' in x ? x.title : null))).toContain('Order updated: 0.020 BTC, triggers at 57,500.0'));
  });

  it('edits a TP order\'s trigger (its price)', async () => {
    const bodies: Record<string, unknown>[] = [];
    render((b) => (bodies.push(b), envelope(200, 'ok', { ...tp, price: 76_000 })));
    const rows = await screen.findAllByTestId('history-row');
    fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('edit-order-trigger')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Trigger price (mark price)'), { target: { value: '76000' } });
    fireEvent.click(within(dialog).getByTestId('edit-order-save'));
    await waitFor(() => expect(bodies).toEqual([{ orderId: 'o92', price: '76000' }]));
  });

  it('trade history says maker or taker for each fill', async () => {
    render();
    await screen.findAllByTestId('history-row');
    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(2));
    const rows = screen.getAllByTestId('history-row');
    expect(rows.map((r) => cell(r, 'Maker / Taker'))).toEqual(['Maker', 'Taker']);
    expect([cell(rows[1]!, 'Type')]).toEqual(['Stop market']);
  });
});

describe('demo credit in the transaction history (issue 26)', () => {
  it('names the demo credit as such, and only it', async () => {
    renderOrders((http) => {
      http.on('GET', '/wallet/ledger', paged([
        ledger(1, { type: 'ADMIN_ADJUST', amount: '10000.000000', balanceAfter: '10000.000000', ref: 'demo-credit-7-fund' }),
        ledger(2, { type: 'ADMIN_ADJUST', amount: '5.000000', balanceAfter: '10005.000000', ref: 'R123' }),
      ]));
    });
    await screen.findAllByTestId('history-row');
    fireEvent.click(screen.getByRole('tab', { name: 'Transaction history' }));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(2));
    const rows = screen.getAllByTestId('history-row');
    expect(within(rows[0]!).getByText('Demo credit')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Demo credit')).toBeNull();
  });
});

describe('released order margin in the transaction history (issue 26 cosmetics)', () => {
  it('a CONTRACT_CANCEL entry (a cancel, or the release of an edit) is not called a cancel', async () => {
    renderOrders((http) => {
      http.on('GET', '/wallet/ledger', paged([ledger(1, { wallet: 'perp', type: 'CONTRACT_CANCEL', amount: '60.000000', balanceAfter: '9960.000000', ref: 'o1', symbol: 'BTCUSDT' })]));
    });
    await screen.findAllByTestId('history-row');
    fireEvent.click(screen.getByRole('tab', { name: 'Transaction history' }));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(1));
    expect(within(screen.getByTestId('history-row')).getByText('Order margin released (cancel or edit)')).toBeTruthy();
  });
});
