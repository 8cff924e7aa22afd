// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '../../../src/ports/fakes.ts';
import { MarketScreen } from '../../../src/ui/screens/market/MarketScreen.tsx';
import { marketSocket, renderMarketScreen, ticker } from './marketHarness.tsx';

afterEach(cleanup);

function renderMarket(storage?: Record<string, string>, script?: Parameters<typeof renderMarketScreen>[0]['script']) {
  return renderMarketScreen({ url: '/market', path: '/market', screen: <MarketScreen />, ...(storage ? { storage } : {}), ...(script ? { script } : {}) });
}

/** Symbols of the contract list rows, top to bottom. */
function listed(): string[] {
  const table = screen.getByTestId('market-table');
  return [...table.querySelectorAll('tbody tr[data-symbol]')].map((tr) => tr.getAttribute('data-symbol') ?? '');
}

const row = (sym: string) => screen.getByTestId('market-table').querySelector(`tr[data-symbol="${sym}"]`) as HTMLElement;
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));

async function loaded() {
  await waitFor(() => expect(listed().length).toBeGreaterThan(0));
}

describe('market overview: list', () => {
  it('lists the USDT-M crypto contracts with REST prices, formatted (SPEC §9)', async () => {
    renderMarket();
    await loaded();
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(within(row('BTCUSDT')).getByTestId('price').textContent).toBe('65,000.00');
    expect(within(row('BTCUSDT')).getByTestId('change').textContent).toBe('+2.50%');
    expect(within(row('ETHUSDT')).getByTestId('change').textContent).toBe('-1.25%');
    expect(within(row('BTCUSDT')).getByText('3.00B')).toBeTruthy();
    expect(within(row('BTCUSDT')).getByTestId('change').className).toContain('mk-trend--up');
    expect(within(row('ETHUSDT')).getByTestId('change').className).toContain('mk-trend--down');
  });

  it('sorts by a column header: change descending, then ascending, then listing order', async () => {
    renderMarket();
    await loaded();
    tab('USDT-M Perpetual');
    const header = () => screen.getByRole('button', { name: 'Sort by 24h change' });
    fireEvent.click(header());
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(screen.getByRole('columnheader', { name: /24h change/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(header());
    expect(listed()).toEqual(['ETHUSDT', 'BTCUSDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Last price' }));
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Pair' }));
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Pair' }));
    expect(listed()).toEqual(['ETHUSDT', 'BTCUSDT']);
  });

  it('filters by category and contract kind', async () => {
    renderMarket();
    await loaded();
    tab('Commodities');
    expect(listed()).toEqual(['XAUUSDT']);
    tab('Stocks');
    expect(listed()).toEqual(['AAPLUSDT']);
    tab('Indices');
    expect(listed()).toEqual([]);
    expect(screen.getByText('No matching contracts')).toBeTruthy();
    tab('Standard Futures');
    expect(listed()).toEqual(['SPXUSDT']);
    tab('Crypto');
    expect(listed()).toEqual(['BTCUSDT']);
  });

  it('the kind, category and sort are view state (issue 16): in the store, and a replayed value shows that list', async () => {
    const h = renderMarket();
    await loaded();
    tab('Standard Futures');
    tab('Stocks');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Pair' }));
    expect(h.core.view.get('market.list')).toEqual({ kind: 'std', category: 'stock', sort: { key: 'pair', dir: 'asc' } });
    act(() => h.core.view.apply('market.list', { kind: 'perp', category: 'crypto', sort: { key: 'change', dir: 'asc' } }));
    expect(listed()).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(screen.getByRole('columnheader', { name: /24h change/ }).getAttribute('aria-sort')).toBe('ascending');
    act(() => h.core.view.apply('market.list', { kind: 'perp', category: 'commodity', sort: null }));
    expect(listed()).toEqual(['XAUUSDT']);
    // Anything else (an unknown tab, a sort of another shape) reads as the default list.
    act(() => h.core.view.apply('market.list', { kind: 'perp', category: 'bonds', sort: null }));
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('searches by symbol or name within the tab, case-insensitively', async () => {
    renderMarket();
    await loaded();
    const box = screen.getByRole('searchbox', { name: 'Search symbol or name' });
    fireEvent.change(box, { target: { value: 'ether' } });
    expect(listed()).toEqual(['ETHUSDT']);
    fireEvent.change(box, { target: { value: 'btc/usdt' } });
    expect(listed()).toEqual(['BTCUSDT']);
    fireEvent.change(box, { target: { value: 'gold' } });
    expect(listed()).toEqual([]);
    tab('Commodities');
    expect(listed()).toEqual(['XAUUSDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    tab('Crypto');
    expect(listed()).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('opens the trade screen of the kind: /mFutures/{pair} or /stdFuture/{pair}', async () => {
    renderMarket();
    await loaded();
    fireEvent.click(row('ETHUSDT'));
    expect(screen.getByTestId('location').textContent).toBe('/mFutures/ETHUSDT');
    cleanup();
    renderMarket();
    await loaded();
    tab('Standard Futures');
    fireEvent.click(row('BTCUSDT'));
    expect(screen.getByTestId('location').textContent).toBe('/stdFuture/BTCUSDT');
  });
});

describe('market overview: favourites per user', () => {
  it('a guest star goes to favorites:guest and shows in the Favorites tab; the click does not navigate', async () => {
    const h = renderMarket();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Add BTCUSDT to favorites' }));
    expect(screen.queryByTestId('location')).toBeNull();
    expect(JSON.parse(h.storage.get('favorites:guest') ?? '[]')).toEqual(['BTCUSDT']);
    expect(screen.getByRole('button', { name: 'Remove BTCUSDT from favorites' }).getAttribute('aria-pressed')).toBe('true');
    tab('Favorites');
    expect(listed()).toEqual(['BTCUSDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove BTCUSDT from favorites' }));
    expect(listed()).toEqual([]);
    expect(screen.getByText(/No favorites yet/)).toBeTruthy();
    expect(h.storage.get('favorites:guest')).toBe('[]');
  });

  it('a logged-in user has their own list under favorites:<uid>, separate from the guest list', async () => {
    const user = { id: 4242, nickname: 'u', avatar: '', cover_email: 'a***@x.com', kycStatus: 'unverified', googleBound: false, inviteCode: 'I', withdrawLockUntil: 0, createdAt: 0 };
    const h = renderMarket({ token: 'tok', 'favorites:guest': '["ETHUSDT"]', 'favorites:4242': '["XAUUSDT"]' }, (http) =>
      http.on('GET', '/user/info', envelope(200, 'success', user)),
    );
    await loaded();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add ETHUSDT to favorites' })).toBeTruthy());
    tab('Favorites');
    await waitFor(() => expect(listed()).toEqual(['XAUUSDT']));
    tab('Crypto');
    fireEvent.click(screen.getByRole('button', { name: 'Add BTCUSDT to favorites' }));
    expect(JSON.parse(h.storage.get('favorites:4242') ?? '[]')).toEqual(['XAUUSDT', 'BTCUSDT']);
    expect(h.storage.get('favorites:guest')).toBe('["ETHUSDT"]');
  });
});

describe('market overview: live', () => {
  it('subscribes all@ticker, applies socket tickers, and shows Reconnecting… while the socket is down', async () => {
    const h = renderMarket();
    await loaded();
    const ws = marketSocket(h);
    expect(screen.getByTestId('market-conn').textContent).toBe('Connecting…');
    act(() => ws.open());
    await waitFor(() => expect(screen.getByTestId('market-conn').textContent).toBe('Live'));
    expect(ws.sent.map((s) => JSON.parse(s) as { action: string; topics?: string[] })).toContainEqual({ action: 'subscribe', topics: ['all@ticker'] });

    act(() => ws.frame({ type: 'tickers', items: [ticker('BTCUSDT', 66123.45, 4.2, 3_100_000_000, 5)], ts: 5 }));
    await waitFor(() => expect(within(row('BTCUSDT')).getByTestId('price').textContent).toBe('66,123.45'));
    expect(within(row('BTCUSDT')).getByTestId('change').textContent).toBe('+4.20%');
    // An older ticker (e.g. a late REST answer) never moves the price back.
    act(() => ws.frame({ type: 'tickers', items: [ticker('BTCUSDT', 1, 0, 1, 2)], ts: 2 }));
    await new Promise((r) => requestAnimationFrame(r));
    expect(within(row('BTCUSDT')).getByTestId('price').textContent).toBe('66,123.45');

    act(() => ws.close(1006, 'gone'));
    await waitFor(() => expect(screen.getByTestId('market-conn').textContent).toBe('Reconnecting…'));
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
    act(() => h.clock.increment(10_000));
    const again = marketSocket(h);
    expect(again).not.toBe(ws);
    act(() => again.open());
    await waitFor(() => expect(screen.getByTestId('market-conn').textContent).toBe('Live'));
    expect(again.sent.map((s) => JSON.parse(s) as unknown)).toContainEqual({ action: 'subscribe', topics: ['all@ticker'] });
    act(() => again.frame({ type: 'tickers', items: [ticker('BTCUSDT', 67000, 5, 3_200_000_000, 9)], ts: 9 }));
    await waitFor(() => expect(within(row('BTCUSDT')).getByTestId('price').textContent).toBe('67,000.00'));
  });

  it('coalesces a burst of frames into one render per animation frame', async () => {
    const h = renderMarket();
    await loaded();
    const ws = marketSocket(h);
    act(() => ws.open());
    const price = within(row('ETHUSDT')).getByTestId('price');
    const seen: string[] = [];
    const obs = new MutationObserver(() => seen.push(price.textContent ?? ''));
    obs.observe(price, { characterData: true, childList: true, subtree: true });
    act(() => {
      for (let i = 1; i <= 50; i++) ws.frame({ type: 'tickers', items: [ticker('ETHUSDT', 3200 + i, -1, 9e8, 10 + i)], ts: 10 + i });
    });
    await waitFor(() => expect(price.textContent).toBe('3,250.00'));
    obs.disconnect();
    expect(seen.filter((t) => t !== '3,250.00')).toEqual([]);
  });

  it('boards: hot coins, top gainers (by change) and top volume', async () => {
    renderMarket();
    await loaded();
    const hot = screen.getByTestId('hot-coins');
    expect([...hot.querySelectorAll('[data-symbol]')].map((e) => e.getAttribute('data-symbol'))).toEqual(['BTCUSDT', 'ETHUSDT']);
    const gainers = screen.getByTestId('top-gainers');
    expect([...gainers.querySelectorAll('[data-symbol]')].map((e) => e.getAttribute('data-symbol'))).toEqual(['BTCUSDT', 'XAUUSDT', 'AAPLUSDT', 'ETHUSDT']);
    const vol = screen.getByTestId('top-volume');
    expect([...vol.querySelectorAll('[data-symbol]')].map((e) => e.getAttribute('data-symbol'))).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSDT', 'AAPLUSDT']);
  });

  it('shows the load error while the REST load fails', async () => {
    const h = renderMarket(undefined, (http) => http.on('GET', '/market/symbols', { kind: 'networkError', message: 'down' }));
    await waitFor(() => expect(screen.getByText('Could not load markets. Retrying…')).toBeTruthy());
    expect(h.http.requests.filter((r) => r.path === '/market/symbols')).toHaveLength(1);
  });
});
