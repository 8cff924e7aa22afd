// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '../../../src/ports/fakes.ts';
import { HomeScreen } from '../../../src/ui/screens/home/HomeScreen.tsx';
import { marketSocket, renderMarketScreen, ticker } from './marketHarness.tsx';

afterEach(cleanup);

const renderHome = (storage?: Record<string, string>, script?: Parameters<typeof renderMarketScreen>[0]['script']) =>
  renderMarketScreen({ url: '/', path: '/', screen: <HomeScreen />, ...(storage ? { storage } : {}), ...(script ? { script } : {}) });

const hotSymbols = () => [...screen.getByTestId('home-hot').querySelectorAll('[data-symbol]')].map((e) => e.getAttribute('data-symbol'));
const activeBanner = () => screen.getAllByTestId('home-banner').findIndex((b) => b.getAttribute('data-active') === 'true');

describe('home', () => {
  it('shows six banners with translated headlines in the DOM, and dots that switch them', () => {
    renderHome();
    const banners = screen.getAllByTestId('home-banner');
    expect(banners).toHaveLength(6);
    banners.forEach((b, i) => expect(b.querySelector('img')?.getAttribute('src')).toBe(`/banners/banner-${i + 1}.svg`));
    expect(screen.getByRole('heading', { name: 'Risk-free futures trading' })).toBeTruthy();
    expect(activeBanner()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Show banner 4' }));
    expect(activeBanner()).toBe(3);
    fireEvent.click(screen.getByRole('button', { name: 'Next banner' }));
    expect(activeBanner()).toBe(4);
    const carousel = screen.getByTestId('home-carousel');
    fireEvent.pointerDown(carousel, { clientX: 300 });
    fireEvent.pointerUp(carousel, { clientX: 100 });
    expect(activeBanner()).toBe(5);
  });

  it('states the SPEC §1 claims', () => {
    renderHome();
    const claims = screen.getByTestId('home-claims');
    for (const text of ['100M USD', '20 years', '100K+', '0 fee', 'No-slippage instant exchange']) expect(within(claims).getByText(text)).toBeTruthy();
    expect(screen.getAllByText('Risk-free trading').length).toBeGreaterThan(0);
  });

  it('lists live hot pairs and opens /mFutures/{pair}', async () => {
    const h = renderHome();
    await waitFor(() => expect(hotSymbols()).toEqual(['BTCUSDT', 'ETHUSDT']));
    const btc = screen.getByTestId('home-hot').querySelector('[data-symbol="BTCUSDT"]') as HTMLElement;
    expect(within(btc).getByTestId('price').textContent).toBe('65,000.00');
    expect(within(btc).getByTestId('change').textContent).toBe('+2.50%');
    // The sparkline is seeded from hourly klines (three closes in the harness).
    await waitFor(() => expect(btc.querySelector('.mk-spark path')?.getAttribute('d')?.split('L')).toHaveLength(3));
    expect(h.http.requests.some((r) => r.path === '/market/klines' && r.query?.symbol === 'BTCUSDT' && r.query.interval === '1h')).toBe(true);
    const ws = marketSocket(h);
    act(() => ws.open());
    act(() => ws.frame({ type: 'tickers', items: [ticker('BTCUSDT', 64000.5, -0.5, 1e9, 7)], ts: 7 }));
    await waitFor(() => expect(within(btc).getByTestId('price').textContent).toBe('64,000.50'));
    expect(within(btc).getByTestId('change').className).toContain('mk-trend--down');
    fireEvent.click(btc);
    expect(screen.getByTestId('location').textContent).toBe('/mFutures/BTCUSDT');
  });

  it('sign-up CTA goes to /register for a guest and becomes Trade now when logged in', async () => {
    renderHome();
    expect(screen.getAllByRole('link', { name: 'Sign up now' })[0]?.getAttribute('href')).toBe('/register');
    expect(screen.queryByRole('link', { name: 'Trade now' })).toBeNull();
    cleanup();
    const user = { id: 1, nickname: 'u', avatar: '', cover_email: 'a***@x.com', kycStatus: 'unverified', googleBound: false, inviteCode: 'I', withdrawLockUntil: 0, createdAt: 0 };
    renderHome({ token: 'tok' }, (http) => http.on('GET', '/user/info', envelope(200, 'success', user)));
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'Trade now' }).length).toBeGreaterThan(0));
    expect(screen.queryByRole('link', { name: 'Sign up now' })).toBeNull();
  });

  it('app download buttons only say Coming Soon', () => {
    renderHome();
    for (const id of ['download-ios', 'download-android', 'download-apk']) {
      const b = screen.getByTestId(id);
      expect(b.tagName).toBe('BUTTON');
      expect(within(b).getByText('Coming Soon')).toBeTruthy();
    }
  });
});
