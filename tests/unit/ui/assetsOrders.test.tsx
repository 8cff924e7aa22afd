// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
