// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { Position } from '../../../src/protocol/trading.ts';
import { AssetsOverviewScreen } from '../../../src/ui/screens/assets/AssetsOverviewScreen.tsx';
import { FuturesAccountScreen } from '../../../src/ui/screens/assets/FuturesAccountScreen.tsx';
import { SpotAccountScreen } from '../../../src/ui/screens/assets/SpotAccountScreen.tsx';
import { BALANCES, bal, renderAssets, installClickClock } from './assetsHarness.tsx';

installClickClock();

const overview = (o: Partial<Parameters<typeof renderAssets>[0]> = {}) =>
  renderAssets({ path: '/my/assets/overview', screen: <AssetsOverviewScreen />, ...o });

describe('assets overview', () => {
  it('shows the total equity and each wallet total/available in USD from the balances call', async () => {
    overview();
    await waitFor(() => expect(screen.getByTestId('total-equity').textContent).toBe('$11,250.50'));
    expect(screen.getByTestId('wallet-fund-total').textContent).toBe('$10,000.00');
    expect(screen.getByTestId('wallet-spot-total').textContent).toBe('$250.50');
    expect(screen.getByTestId('wallet-perp-total').textContent).toBe('$1,000.00');
    expect(screen.getByTestId('wallet-perp-available').textContent).toBe('$900.00');
    expect(screen.getByTestId('wallet-copy-total').textContent).toBe('$0.00');
    expect(screen.getByText('USDT-M perpetual')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Deposit' }).getAttribute('href')).toBe('/my/wallet/deposit');
    expect(screen.getByRole('link', { name: 'Withdraw' }).getAttribute('href')).toBe('/my/wallet/withdrawal');
  });

  it('a balance frame on the user socket updates its wallet card and the total (next animation frame)', async () => {
    const h = overview();
    await waitFor(() => expect(screen.getByTestId('total-equity').textContent).toBe('$11,250.50'));
    h.push({ type: 'balance', data: bal('perp', 'USDT', '1900.000000', '100.000000') });
    await waitFor(() => expect(screen.getByTestId('wallet-perp-total').textContent).toBe('$2,000.00'));
    expect(screen.getByTestId('wallet-perp-available').textContent).toBe('$1,900.00');
    expect(screen.getByTestId('total-equity').textContent).toBe('$12,250.50');
    // Frames of other types and malformed balances change nothing (a good frame after them shows they were read).
    h.push({ type: 'balance', data: { wallet: 'perp', coin: 'USDT', available: 'lots' } });
    h.push({ type: 'order', data: {} });
    h.push({ type: 'balance', data: bal('copy', 'USDT', '1.000000') });
    await waitFor(() => expect(screen.getByTestId('wallet-copy-total').textContent).toBe('$1.00'));
    expect(screen.getByTestId('wallet-perp-total').textContent).toBe('$2,000.00');
    expect(screen.getByTestId('total-equity').textContent).toBe('$12,251.50');
  });

  it('a frame that arrives before the balances answer is not lost when the snapshot lands', async () => {
    let answer: ((v: ReturnType<typeof envelope>) => void) | null = null;
    const h = overview({
      script: (http) => http.on('GET', '/wallet/balances', () => new Promise((r) => (answer = r))),
    });
    await waitFor(() => expect(answer).not.toBeNull());
    h.push({ type: 'balance', data: bal('fund', 'USDT', '9000.000000') });
    await act(async () => answer?.(envelope(200, 'success', BALANCES)));
    await waitFor(() => expect(screen.getByTestId('wallet-fund-total').textContent).toBe('$9,000.00'));
    expect(screen.getByTestId('total-equity').textContent).toBe('$10,250.50');
  });

  it('values a non-USDT coin at its market price (and only then asks for tickers)', async () => {
    const h = overview({
      balances: [...BALANCES, bal('spot', 'BTC', '0.50000000', '0.00000000', '0.50000000')],
      script: (http) => http.on('GET', '/market/tickers', envelope(200, 'success', [{ symbol: 'BTCUSDT', last: 60000 }])),
    });
    await waitFor(() => expect(screen.getByTestId('wallet-spot-total').textContent).toBe('$30,250.50'));
    expect(screen.getByTestId('total-equity').textContent).toBe('$41,250.50');
    expect(h.http.requests.filter((r) => r.path === '/market/tickers')).toHaveLength(1);
  });

  it('an all-USDT account makes no market call', async () => {
    const h = overview();
    await waitFor(() => expect(screen.getByTestId('total-equity').textContent).toBe('$11,250.50'));
    expect(h.http.requests.some((r) => r.path === '/market/tickers')).toBe(false);
  });

  it('shows the load error with the server message', async () => {
    overview({ script: (http) => http.on('GET', '/wallet/balances', envelope(500, 'Database busy')) });
    expect((await screen.findByRole('alert')).textContent).toContain('Database busy');
  });
});

describe('transfer dialog', () => {
  async function openDialog(o: Partial<Parameters<typeof renderAssets>[0]> = {}) {
    const h = overview(o);
    await waitFor(() => expect(screen.getByTestId('total-equity').textContent).toBe('$11,250.50'));
    fireEvent.click(screen.getAllByRole('button', { name: 'Transfer' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    return { h, dialog: within(dialog) };
  }
  const transfers = (h: ReturnType<typeof renderAssets>) => h.http.requests.filter((r) => r.method === 'POST' && r.path === '/wallet/transfer');

  it('is view state of its screen: opened here it names this path, and one opened on another screen (Back with it open) is not shown here', async () => {
    const { h } = await openDialog();
    expect(h.core.view.get('dialog.transfer')).toEqual({ from: 'fund', to: 'perp', coin: 'USDT', at: '/my/assets/overview' });
    act(() => h.core.view.set('dialog.transfer', { from: 'fund', to: 'spot', coin: 'USDT', at: '/my/dashboard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A record made before the path was kept opens it wherever it is replayed.
    act(() => h.core.view.set('dialog.transfer', { from: 'fund', to: 'spot', coin: 'USDT' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('validates on the client: no amount, zero, more than available; nothing is posted', async () => {
    const { h, dialog } = await openDialog();
    expect(dialog.getByTestId('transfer-available').textContent).toBe('Available: 10,000.00 USDT');
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm transfer' }));
    expect(dialog.getByRole('alert').textContent).toBe('Please fill in the transfer amount');
    fireEvent.change(dialog.getByLabelText('Amount'), { target: { value: '0' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm transfer' }));
    expect(dialog.getByRole('alert').textContent).toBe('The transfer amount must be greater than 0');
    fireEvent.change(dialog.getByLabelText('Amount'), { target: { value: '10000.000001' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm transfer' }));
    expect(dialog.getByRole('alert').textContent).toBe('Insufficient Balance');
    expect(transfers(h)).toHaveLength(0);
  });

  it('Max fills the exact available; swap exchanges the wallets and the available follows', async () => {
    const { dialog } = await openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Max' }));
    expect((dialog.getByLabelText('Amount') as HTMLInputElement).value).toBe('10000');
    fireEvent.click(dialog.getByRole('button', { name: 'Swap accounts' }));
    expect((dialog.getByLabelText('From') as HTMLSelectElement).value).toBe('perp');
    expect((dialog.getByLabelText('To') as HTMLSelectElement).value).toBe('fund');
    expect(dialog.getByTestId('transfer-available').textContent).toBe('Available: 900.00 USDT');
    // Choosing the destination as the source swaps instead of making them equal.
    fireEvent.change(dialog.getByLabelText('From'), { target: { value: 'fund' } });
    expect((dialog.getByLabelText('To') as HTMLSelectElement).value).toBe('perp');
  });

  it('posts the transfer, toasts the server msg, refreshes the balances and closes', async () => {
    let after = BALANCES;
    const { h, dialog } = await openDialog({
      script: (http) => {
        http.on('GET', '/wallet/balances', () => envelope(200, 'success', after));
        http.on('POST', '/wallet/transfer', () => {
          after = BALANCES.map((b) => (b.wallet === 'fund' ? bal('fund', 'USDT', '9900.000000') : b.wallet === 'perp' ? bal('perp', 'USDT', '1000.000000', '100.000000') : b));
          return envelope(200, 'success', { from: after[0], to: after[3] });
        });
      },
    });
    fireEvent.change(dialog.getByLabelText('Amount'), { target: { value: '1a00' } });
    expect((dialog.getByLabelText('Amount') as HTMLInputElement).value).toBe('100');
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm transfer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(transfers(h).map((r) => r.body)).toEqual([{ from: 'fund', to: 'perp', coin: 'USDT', amount: '100' }]);
    expect(await screen.findByText('Transfer completed')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('wallet-fund-total').textContent).toBe('$9,900.00'));
    expect(screen.getByTestId('wallet-perp-total').textContent).toBe('$1,100.00');
    expect(h.http.requests.filter((r) => r.path === '/wallet/balances')).toHaveLength(2);
  });

  it('shows a server rejection translated when it is a SPEC message (zh)', async () => {
    const h = renderAssets({
      path: '/my/assets/overview',
      screen: <AssetsOverviewScreen />,
      lang: 'zh',
      script: (http) => http.on('POST', '/wallet/transfer', envelope(400, 'Insufficient Balance')),
    });
    await waitFor(() => expect(screen.getByTestId('total-equity').textContent).toBe('$11,250.50'));
    fireEvent.click(screen.getAllByRole('button', { name: '划转' })[0] as HTMLElement);
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('数量'), { target: { value: '5' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认划转' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('余额不足');
    expect(h.http.requests.filter((r) => r.path === '/wallet/transfer')).toHaveLength(1);
  });
});

describe('spot and futures accounts', () => {
  it('spot: a coin table with total, available and frozen; a card list on a phone', async () => {
    renderAssets({ path: '/my/assets/spot-account', screen: <SpotAccountScreen />, balances: [...BALANCES, bal('spot', 'BTC', '0.10000000', '0.02000000', '0.12000000')] });
    const rows = await screen.findAllByTestId('coin-row');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('USDT250.50250.500.00'), expect.stringContaining('BTC0.120000000.100000000.02000000')]);
    expect(rows[0]?.tagName).toBe('TR');
    cleanup();
    renderAssets({ path: '/my/assets/spot-account', screen: <SpotAccountScreen />, width: 390 });
    const cards = await screen.findAllByTestId('coin-row');
    expect(cards[0]?.tagName).toBe('LI');
  });

  it('futures: equity includes the unrealized PnL of open positions, live from position frames', async () => {
    const pos: Position = {
      id: 'p1', symbol: 'BTCUSDT', contract: 'perp', side: 'long', qty: 0.01, entryPrice: 60000, markPrice: 61000, liquidationPrice: 54300.5,
      margin: '100.000000', marginRatio: 0.2, unrealizedPnl: '10.000000', returnPct: 10, tp: null, sl: null, leverage: 6, openedAt: 1, updatedAt: 1,
    };
    const h = renderAssets({
      path: '/my/assets/futures-account',
      screen: <FuturesAccountScreen />,
      script: (http) => http.on('GET', '/trade/positions', envelope(200, 'success', [pos])),
    });
    await waitFor(() => expect(screen.getByTestId('futures-perp-equity').textContent).toBe('1,010.00'));
    expect(screen.getByTestId('futures-perp-pnl').textContent).toBe('10.00');
    expect(screen.getByTestId('futures-std-equity').textContent).toBe('0.00');
    expect(screen.getByTestId('position-row').textContent).toContain('54,300.50');
    h.push({ type: 'position', data: { ...pos, markPrice: 59000, unrealizedPnl: '-10.000000', returnPct: -10, closed: false } });
    await waitFor(() => expect(screen.getByTestId('futures-perp-equity').textContent).toBe('990.00'));
    h.push({ type: 'position', data: { ...pos, closed: true } });
    await waitFor(() => expect(screen.queryByTestId('position-row')).toBeNull());
    expect(screen.getByTestId('futures-perp-equity').textContent).toBe('1,000.00');
  });
});
