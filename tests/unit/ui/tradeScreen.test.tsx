// @vitest-environment jsdom
import { toast } from 'sonner';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { envelope, type ScriptedHttp } from '../../../src/ports/fakes.ts';
import { TRADE_MSG, type Balance, type Order, type Position } from '../../../src/protocol/trading.ts';
import { MFuturesScreen, StdFutureScreen } from '../../../src/ui/screens/trade/TradeScreen.tsx';
import { marketSocket, renderMarketScreen, ticker, type MarketHarness } from './marketHarness.tsx';

/**
 * The trade screen over a real app core with scripted ports: the order panel's validation
 * (SPEC §5 texts), the order machine's wiring to POST /trade/order and to user-socket order
 * frames, the >10x confirmation, the idempotent retry, and the positions tab.
 */

afterEach(cleanup);

const BALANCE: Balance = { wallet: 'perp', coin: 'USDT', available: '1000.000000', frozen: '0', total: '1000.000000' };
const POSITION: Position = {
  id: 'p1',
  symbol: 'BTCUSDT',
  contract: 'perp',
  side: 'long',
  qty: 0.01,
  entryPrice: 65000,
  markPrice: 65100,
  liquidationPrice: 58825.5,
  margin: '65.000000',
  marginRatio: 0.12,
  brackets: [{ bracket: 1, notionalFloor: '0.000000', notionalCap: null, maxLeverage: 125, mmr: 0.004, maintAmount: '0.000000' }],
  unrealizedPnl: '1.000000',
  returnPct: 1.54,
  tp: null,
  sl: null,
  leverage: 10,
  openedAt: 1,
  updatedAt: 1,
};

function order(over: Partial<Order>): Order {
  return {
    id: 'o1', clientOrderId: 'id1', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 64000, qty: 0.01, leverage: 5,
    status: 'pending', executedQty: 0, avgPrice: 0, fee: '0', realizedPnl: '0', margin: '128', positionId: null, tp: null, sl: null, createdAt: 1, updatedAt: 1,
    ...over,
  };
}

function scriptTrading(http: ScriptedHttp, placed: (body: Record<string, unknown>) => ReturnType<typeof envelope> = (b) => envelope(200, 'ok', order({ clientOrderId: String(b.clientOrderId) }))) {
  const empty = { list: [], total: 0, page: 1, pageSize: 50 };
  http.on('GET', '/wallet/balances', envelope(200, 'ok', [BALANCE]));
  http.on('GET', '/trade/positions', envelope(200, 'ok', [POSITION]));
  http.on('GET', '/trade/orders/open', envelope(200, 'ok', empty));
  http.on('GET', '/trade/orders/history', envelope(200, 'ok', empty));
  http.on('GET', '/trade/fills', envelope(200, 'ok', empty));
  http.on('GET', '/wallet/ledger', envelope(200, 'ok', empty));
  http.on('GET', '/market/trades', envelope(200, 'ok', [{ id: 1, price: 65000, qty: 0.5, side: 'buy', ts: 1 }]));
  http.on('GET', '/market/depth', envelope(200, 'ok', { symbol: 'BTCUSDT', seq: 1, bids: [], asks: [], ts: 1 }));
  http.on('POST', '/trade/order', (req) => placed(req.body as Record<string, unknown>));
  http.on('POST', '/trade/position/close', envelope(200, 'ok', order({ kind: 'marketClose', status: 'filled', qty: 0.5, executedQty: 0.5, avgPrice: 64210.5 })));
}

function renderTrade(opts: { loggedIn: boolean; placed?: Parameters<typeof scriptTrading>[1]; std?: boolean; more?: (http: ScriptedHttp) => void; width?: number }): MarketHarness {
  const path = opts.std ? '/stdFuture/:pair' : '/mFutures/:pair';
  return renderMarketScreen({
    url: opts.std ? '/stdFuture/SPXUSDT' : '/mFutures/BTCUSDT',
    path,
    screen: opts.std ? <StdFutureScreen /> : <MFuturesScreen />,
    storage: opts.loggedIn ? { token: 'tok' } : {},
    ...(opts.width ? { width: opts.width } : {}),
    script: (http) => {
      scriptTrading(http, opts.placed);
      opts.more?.(http);
    },
  });
}

const posts = (h: MarketHarness) => h.http.requests.filter((r) => r.method === 'POST' && r.path === '/trade/order');

async function panel() {
  return within(await screen.findByRole('region', { name: 'Place order' }));
}

async function fill(label: string, value: string) {
  const p = await panel();
  fireEvent.change(p.getByLabelText(label, { selector: 'input' }), { target: { value } });
}

async function click(name: RegExp | string) {
  const p = await panel();
  await act(async () => {
    fireEvent.click(p.getByRole('button', { name }));
  });
}

/** The place buttons ignore clicks for 450 ms after one (SPEC §9 click debounce). */
async function afterDebounce() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 460));
  });
}

async function settle() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe('trade screen', () => {
  it('shows a visitor the login prompt and stores the pair as trade_pair', async () => {
    const h = renderTrade({ loggedIn: false });
    expect(await screen.findByText('Log in or register to start trading')).toBeTruthy();
    // The order panel shows once the instrument list arrived (one animation frame after, via useStream).
    expect((await screen.findByRole('link', { name: 'Log in' })).getAttribute('href')).toContain('/login');
    expect(h.storage.get('trade_pair')).toBe('BTCUSDT');
    expect(posts(h)).toHaveLength(0);
  });

  it('lists only the instruments of its contract kind in the pair switcher', async () => {
    renderTrade({ loggedIn: false, std: true });
    fireEvent.click(await screen.findByTestId('pair-switcher'));
    const list = within(screen.getByRole('listbox'));
    expect(await list.findByText('SPXUSDT')).toBeTruthy();
    expect(list.queryByText('ETHUSDT')).toBeNull(); // perp only
    fireEvent.change(screen.getByLabelText('Search pair'), { target: { value: 'gold' } });
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1);
  });

  it('the pair switcher shows each pair\'s last price and 24 h change (issue 26)', async () => {
    renderTrade({ loggedIn: false });
    fireEvent.click(await screen.findByTestId('pair-switcher'));
    const list = within(screen.getByRole('listbox'));
    await waitFor(() => expect(list.getAllByTestId('pair-option').length).toBeGreaterThan(1));
    const row = (sym: string) => list.getAllByTestId('pair-option').find((o) => o.textContent?.includes(sym))!;
    await waitFor(() => expect(within(row('BTCUSDT')).getByTestId('pair-last').textContent).toBe('65,000.00'));
    expect(within(row('BTCUSDT')).getByTestId('pair-change').textContent).toBe('+2.50%');
    expect(within(row('BTCUSDT')).getByTestId('pair-change').className).toBe('rf-up');
    expect(within(row('ETHUSDT')).getByTestId('pair-change').textContent).toBe('-1.25%');
    expect(within(row('ETHUSDT')).getByTestId('pair-change').className).toBe('rf-down');
  });

  it('a limit price of -100 or 1e5 says what is wrong with it (issue 26)', async () => {
    const h = renderTrade({ loggedIn: true });
    await fill('Quantity', '0.01');
    await fill('Price', '-100');
    await click('Buy / Long');
    expect((await screen.findByRole('alert')).textContent).toBe('The price must be greater than 0');
    await fill('Price', '1e5');
    await click('Buy / Long');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Enter the price as a plain number, such as 65000.5'));
    expect(posts(h)).toHaveLength(0);
  });

  it('a limit order without a price shows the SPEC message and posts nothing', async () => {
    const h = renderTrade({ loggedIn: true });
    await fill('Quantity', '0.01');
    await click('Buy / Long');
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter the limit order price!');
    expect(posts(h)).toHaveLength(0);
  });

  it('checks the minimum quantity and the balance', async () => {
    renderTrade({ loggedIn: true });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '65000');
    await fill('Quantity', '0.0001');
    await click('Buy / Long');
    expect((await screen.findByRole('alert')).textContent).toBe('Min order quantity: 0.001');
    await fill('Quantity', '1');
    await afterDebounce();
    await click('Buy / Long');
    expect((await screen.findByRole('alert')).textContent).toBe('Insufficient Balance Transfer');
  });

  it('places a valid limit order with a client order id and follows the user socket to filled', async () => {
    const h = renderTrade({ loggedIn: true });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '64000');
    await fill('Quantity', '0.01');
    await click('Buy / Long');
    await settle();
    expect(posts(h)).toHaveLength(1);
    const body = posts(h)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: '64000', qty: '0.01', leverage: 10 });
    expect(typeof body.clientOrderId).toBe('string');
    expect(await screen.findByText('Order placed')).toBeTruthy();
    const user = h.sockets.sockets.find((s) => s.url.includes('/ws/user'));
    expect(user).toBeDefined();
    act(() => {
      user?.open();
      user?.frame({ type: 'order', data: order({ clientOrderId: String(body.clientOrderId), status: 'filled', executedQty: 0.01, avgPrice: 64000 }) });
    });
    expect(await screen.findByText('Order filled')).toBeTruthy();
  });

  it('asks for confirmation above 10x; back posts nothing, confirm posts once', async () => {
    const h = renderTrade({ loggedIn: true });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Leverage', '20');
    await fill('Price', '64000');
    await fill('Quantity', '0.01');
    await click('Sell / Short');
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/20x leverage/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(dialog.getByRole('button', { name: 'Back' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(h)).toHaveLength(0);
    await afterDebounce();
    await click('Sell / Short');
    await act(async () => {
      fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm order' }));
    });
    await settle();
    expect(posts(h)).toHaveLength(1);
    expect((posts(h)[0]?.body as Record<string, unknown>).side).toBe('sell');
  });

  it('retries a network failure with the same clientOrderId', async () => {
    let calls = 0;
    const h = renderTrade({
      loggedIn: true,
      placed: (b) => (++calls === 1 ? { kind: 'networkError', message: 'timeout' } : envelope(200, 'ok', order({ clientOrderId: String(b.clientOrderId) }))) as ReturnType<typeof envelope>,
    });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '64000');
    await fill('Quantity', '0.01');
    await click('Buy / Long');
    await settle();
    expect(await screen.findByText(/Network error: the order may not have reached the server/)).toBeTruthy();
    await click('Retry');
    await settle();
    expect(await screen.findByText('Order placed')).toBeTruthy();
    const ids = posts(h).map((r) => (r.body as Record<string, unknown>).clientOrderId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it('the position row and the close dialog follow the live mark between position frames (issue 26)', async () => {
    const h = renderTrade({ loggedIn: true });
    const row = await screen.findByTestId('position-row');
    expect(within(row).getByTestId('position-mark').textContent).toBe('65,100.00');
    expect(within(row).getByTestId('position-pnl').textContent).toBe('1.00 (+1.54%)');
    // a ticker frame moves the mark: no position frame comes, the row is valued again (cost 650)
    const ws = marketSocket(h);
    act(() => ws.open());
    act(() => ws.frame({ ...ticker('BTCUSDT', 66_000, 0, 1, 99), type: 'ticker', mark: 66_100 }));
    await waitFor(() => expect(within(row).getByTestId('position-mark').textContent).toBe('66,100.00'));
    expect(within(row).getByTestId('position-pnl').textContent).toBe('11.00 (+16.92%)');
    // maintenance margin / margin balance: 661 × 0.4 % = 2.644 over 65 + 11; (66 100 − 58 825.5) / 66 100
    expect(within(row).getByTestId('position-margin-ratio').textContent).toBe('3.48%');
    expect(within(row).getByTestId('liq-distance').textContent).toBe('11.01% away');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Close', exact: true } as never));
    });
    await settle();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('close-price').textContent).toMatch(/^66,100\.00/);
    expect(within(dialog).getByTestId('close-pnl').textContent).toBe('+11.00 USDT');
    // the open dialog keeps following the mark
    act(() => ws.frame({ ...ticker('BTCUSDT', 66_000, 0, 1, 100), type: 'ticker', mark: 64_100 }));
    await waitFor(() => expect(within(dialog).getByTestId('close-pnl').textContent).toBe('-9.00 USDT'));
  });

  it('open orders show a stop\'s trigger and what it watches; its trigger can be edited (issue 26)', async () => {
    const stop = order({ id: 's1', kind: 'stopMarket', side: 'sell', price: 0, triggerPrice: 58_000, triggerBy: 'mark', triggered: false });
    const bodies: unknown[] = [];
    renderTrade({
      loggedIn: true,
      more: (http) => {
        http.on('GET', '/trade/orders/open', envelope(200, 'ok', { list: [stop], total: 1, page: 1, pageSize: 50 }));
        http.on('POST', '/trade/order/edit', (req) => (bodies.push(req.body), envelope(200, 'ok', { ...stop, triggerPrice: 57_000 })));
        http.on('GET', '/trade/fills', envelope(200, 'ok', { list: [{ id: 1, orderId: 's1', positionId: 'p1', symbol: 'BTCUSDT', contract: 'perp', kind: 'stopMarket', side: 'sell', price: 58_000, qty: 0.01, fee: '0.29', realizedPnl: '0', time: 1, liquidity: 'taker' }], total: 1, page: 1, pageSize: 50 }));
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: /Open orders/ }));
    const row = await screen.findByTestId('open-order-row');
    expect(within(row).getByTestId('order-trigger').textContent).toBe('58,000.00 · Mark');
    expect(within(row).getByTestId('order-price').textContent).toBe('Market');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    });
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('edit-order-trigger'), { target: { value: '57000' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('edit-order-save'));
    });
    await waitFor(() => expect(bodies).toEqual([{ orderId: 's1', triggerPrice: '57000' }]));
    fireEvent.click(screen.getByRole('tab', { name: /Trade history/ }));
    expect((await screen.findByTestId('fill-liquidity')).textContent).toBe('Taker');
  });

  it('the order panel shows the cost (margin + fee) and the largest size the balance opens at this price and leverage (issue 26)', async () => {
    renderTrade({ loggedIn: true });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '65000');
    await fill('Quantity', '0.01');
    const p = await panel();
    // 10x: margin 65, fee 650 × taker rate; the largest size: 1000 × 10 / (65000 × (1 + rate × 10)), floored to 0.001
    await waitFor(() => expect(p.getByTestId('order-cost').textContent).toMatch(/^65\.\d\d USDT$/));
    const cost = Number(p.getByTestId('order-cost').textContent?.split(' ')[0]);
    expect(cost).toBeGreaterThan(65);
    expect(p.getByTestId('order-max-open').textContent).toBe('0.153 BTC');
    await fill('Quantity', '');
    expect(p.getByTestId('order-cost').textContent).toBe('-- USDT');
    expect(p.getByTestId('order-max-open').textContent).toBe('0.153 BTC');
  });

  it('the header counts down to the next funding on the market clock of the ticker frames (issue 26)', async () => {
    const h = renderTrade({ loggedIn: true });
    await screen.findByTestId('position-row');
    const ws = marketSocket(h);
    act(() => ws.open());
    // 05:47:15.5 UTC: the next funding is at 08:00
    const at = Date.UTC(2026, 10, 27, 5, 47, 15, 500);
    act(() => ws.frame({ ...ticker('BTCUSDT', 66_000, 0, 1, at), type: 'ticker', mark: 66_100 }));
    await waitFor(() => expect(screen.getByTestId('funding-countdown').textContent).toBe('Next funding in 02:12:44'));
    act(() => ws.frame({ ...ticker('BTCUSDT', 66_000, 0, 1, at + 3_000), type: 'ticker', mark: 66_100 }));
    await waitFor(() => expect(screen.getByTestId('funding-countdown').textContent).toBe('Next funding in 02:12:41'));
  });

  it('short of balance, a Transfer link opens the transfer dialog from the fund wallet with the shortfall (issue 26)', async () => {
    renderTrade({ loggedIn: true });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '65000');
    await fill('Quantity', '1');
    await click('Buy / Long');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Insufficient Balance');
    await act(async () => {
      fireEvent.click(within(alert).getByTestId('order-transfer'));
    });
    const dialog = await screen.findByRole('dialog');
    // margin 6 500 + fee 65 000 × taker rate, less the 1 000 available
    const amount = (within(dialog).getByLabelText('Amount') as HTMLInputElement).value;
    expect(amount).toMatch(/^55\d\d(\.\d+)?$/);
    expect(Number(amount)).toBeGreaterThan(5500);
    expect((within(dialog).getByLabelText('From') as HTMLSelectElement).value).toBe('fund');
    expect((within(dialog).getByLabelText('To') as HTMLSelectElement).value).toBe('perp');
  });

  it("the server's own 'Insufficient Balance' refusal carries the Transfer link too (issue 26)", async () => {
    const h = renderTrade({ loggedIn: true, placed: () => envelope(400, TRADE_MSG.insufficientBalance, null) });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '65000');
    await fill('Quantity', '0.01');
    await click('Buy / Long');
    // The panel's own check passed (65 USDT of margin against 1 000): the refusal is the server's.
    const rejected = await screen.findByTestId('order-rejected');
    expect(posts(h)).toHaveLength(1);
    expect(rejected.textContent).toContain('Insufficient Balance');
    await act(async () => {
      fireEvent.click(within(rejected).getByTestId('order-transfer'));
    });
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('From') as HTMLSelectElement).value).toBe('fund');
    expect((within(dialog).getByLabelText('To') as HTMLSelectElement).value).toBe('perp');
  });

  it('another server refusal has no Transfer link (issue 26)', async () => {
    renderTrade({ loggedIn: true, placed: () => envelope(400, TRADE_MSG.postOnlyWouldTake, null) });
    await screen.findByText(/1,000.00 USDT/);
    await fill('Price', '65000');
    await fill('Quantity', '0.01');
    await click('Buy / Long');
    const rejected = await screen.findByTestId('order-rejected');
    expect(within(rejected).queryByTestId('order-transfer')).toBeNull();
  });

  it('on a phone, a fixed Buy / Sell bar sets the side of the order panel and brings it into view (issue 26)', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
    renderTrade({ loggedIn: true, width: 390 });
    const bar = await screen.findByTestId('trade-bar');
    const p = await panel();
    const sideOf = (name: string) => p.getByRole('radio', { name }).getAttribute('aria-checked');
    expect(sideOf('Buy')).toBe('true');
    await act(async () => {
      fireEvent.click(within(bar).getByTestId('trade-bar-sell'));
    });
    await waitFor(() => expect(sideOf('Sell')).toBe('true'));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Price');
    await afterDebounce();
    await act(async () => {
      fireEvent.click(within(bar).getByTestId('trade-bar-buy'));
    });
    await waitFor(() => expect(sideOf('Buy')).toBe('true'));
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
  });

  it('open orders have a Cancel all button that asks, then cancels each (issue 26)', async () => {
    const cancels: unknown[] = [];
    renderTrade({
      loggedIn: true,
      more: (http) => {
        http.on('GET', '/trade/orders/open', envelope(200, 'ok', { list: [order({ id: 'a1' }), order({ id: 'a2', side: 'sell', price: 70000 })], total: 2, page: 1, pageSize: 50 }));
        http.on('POST', '/trade/order/cancel', (req) => (cancels.push(req.body), envelope(200, 'ok', order({ id: String((req.body as { orderId: string }).orderId), status: 'canceled' }))));
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: /Open orders/ }));
    await screen.findAllByTestId('open-order-row');
    await act(async () => {
      fireEvent.click(screen.getByTestId('cancel-all-orders'));
    });
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Open orders of BTCUSDT to cancel: 2.');
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('cancel-all-confirm'));
    });
    await waitFor(() => expect(cancels).toEqual([{ orderId: 'a1' }, { orderId: 'a2' }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('each button says what it will do to the position, whichever side the toggle shows (issue 26)', async () => {
    renderTrade({ loggedIn: true });
    await screen.findByTestId('position-row');
    await fill('Quantity', '0.004');
    const p = await panel();
    await waitFor(() => expect(p.getByTestId('button-preview-buy').textContent).toBe('Increases long 0.01 → 0.014'));
    expect(p.getByTestId('button-preview-sell').textContent).toBe('Reduces long 0.01 → 0.006');
    // the toggle's own preview still follows the toggle, and agrees with its button
    expect(p.getByTestId('order-preview').textContent).toBe(p.getByTestId('button-preview-buy').textContent);
    await fill('Quantity', '0.03');
    await waitFor(() => expect(p.getByTestId('button-preview-sell').textContent).toBe('Flips to short 0.02'));
  });

  it('the close dialog names the minimum for 0.0001 and gives no estimate for more than the position (issue 26)', async () => {
    renderTrade({ loggedIn: true });
    const row = await screen.findByTestId('position-row');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Close', exact: true } as never));
    });
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByLabelText('Amount (BTC)');
    fireEvent.change(amount, { target: { value: '0.5' } });
    await waitFor(() => expect(within(dialog).getByTestId('close-pnl').textContent).toBe('-- USDT'));
    fireEvent.change(amount, { target: { value: '0.0001' } });
    await waitFor(() => expect(within(dialog).getByTestId('close-qty').textContent).toBe('0.0001 BTC'));
    expect(within(dialog).getByTestId('close-pnl').textContent).toBe('-- USDT');
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('close-confirm'));
    });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Min order quantity: 0.001');
    fireEvent.change(amount, { target: { value: '0.005' } });
    await waitFor(() => expect(within(dialog).getByTestId('close-pnl').textContent).toBe('+0.50 USDT'));
  });

  it('shows the position with its liquidation price and closes it', async () => {
    const h = renderTrade({ loggedIn: true });
    const row = await screen.findByTestId('position-row');
    expect(within(row).getByTestId('liq-price').textContent).toBe('58,825.50');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Close', exact: true } as never));
    });
    await settle();
    // issue 14: the close asks first, with the quantity, the estimated price and PnL
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('close-qty').textContent).toBe('0.010 BTC');
    expect(within(dialog).getByTestId('close-price').textContent).toMatch(/\(mark\)$/);
    expect(within(dialog).getByTestId('close-pnl').textContent).toMatch(/USDT$/);
    expect(h.http.requests.find((r) => r.method === 'POST' && r.path === '/trade/position/close')).toBeUndefined();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    });
    await settle();
    const close = h.http.requests.find((r) => r.method === 'POST' && r.path === '/trade/position/close');
    expect(close?.body).toMatchObject({ positionId: 'p1' });
    expect((close?.body as Record<string, unknown>).qty).toBeUndefined();
    // the toast says what happened: how much closed, at what price, to the instrument's precision
    await waitFor(() => expect(toast.getHistory().map((x) => ('title' in x ? x.title : null))).toContain('Position closed 0.500 BTC at 64,210.50'));
  });
});
