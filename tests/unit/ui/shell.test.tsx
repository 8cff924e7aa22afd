// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderShell, USER } from './shellHarness.tsx';

beforeAll(() => {
  window.scrollTo = () => {};
});
afterEach(() => cleanup());

describe('desktop top bar (logged out)', () => {
  it('links Login with the current path as redirect, and Register', async () => {
    const h = renderShell({ path: '/market' });
    const bar = await screen.findByTestId('topbar-desktop');
    expect(within(bar).getByTestId('login-link').getAttribute('href')).toBe('/login?redirect=%2Fmarket');
    expect(within(bar).getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
    expect(within(bar).queryByRole('button', { name: 'Account' })).toBeNull();
    h.core.stop();
  });

  it('Trade and More dropdowns list the SPEC entries', async () => {
    const h = renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'Trade' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((a) => a.getAttribute('href'))).toEqual(['/convert', '/stdFuture', '/mFutures']);
    const moreBtn = screen.getByRole('button', { name: 'More' });
    fireEvent.mouseDown(moreBtn); // an outside press closes the Trade menu
    fireEvent.click(moreBtn);
    const more = screen.getByRole('menu');
    expect(within(more).getAllByRole('menuitem').map((a) => a.getAttribute('href'))).toEqual(['/my/rebate', '/help-center']);
    h.core.stop();
  });

  it('Download shows Coming Soon', async () => {
    const h = renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Coming Soon')).toBeTruthy();
    h.core.stop();
  });
});

describe('desktop top bar (logged in)', () => {
  it('fetches user info on mount and shows masked email and UID in the account dropdown', async () => {
    const h = renderShell({ stored: { token: 't-1' } });
    await waitFor(() => expect(h.core.session.getSnapshot().context.userInfo).not.toBeNull());
    expect(h.http.requests.filter((r) => r.path === '/user/info').length).toBeGreaterThanOrEqual(1);
    expect(screen.queryByTestId('login-link')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText(USER.cover_email)).toBeTruthy();
    expect(within(menu).getByText(String(USER.id))).toBeTruthy();
    expect((within(menu).getByRole('img', { name: 'Avatar' }) as HTMLImageElement).getAttribute('src')).toBe('/default-avatar.svg');
    const hrefs = within(menu)
      .getAllByRole('menuitem')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      '/my/dashboard',
      '/my/assets/overview',
      '/my/order/futures',
      '/my/rebate',
      '/my/compensation/orders',
      '/my/coupon',
      '/my/settings/preference',
      null, // Logout is a button
    ]);
    h.core.stop();
  });

  it('copying the UID toasts success with the clipboard text', async () => {
    const writes: string[] = [];
    const h = renderShell({ stored: { token: 't-1' }, clipboard: { writeText: async (s) => void writes.push(s) } });
    await waitFor(() => expect(h.core.session.getSnapshot().context.userInfo).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('button', { name: 'UID' }));
    expect(await screen.findByText('Copy Successful!')).toBeTruthy();
    expect(writes).toEqual([String(USER.id)]);
    h.core.stop();
  });

  it('a failing clipboard toasts the manual-copy message', async () => {
    const h = renderShell({ stored: { token: 't-1' }, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    await waitFor(() => expect(h.core.session.getSnapshot().context.userInfo).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('button', { name: 'UID' }));
    expect(await screen.findByText('Copy Failed, please copy manually')).toBeTruthy();
    h.core.stop();
  });

  it('copying before user info arrives says there is nothing to copy', async () => {
    const h = renderShell({
      stored: { token: 't-1' },
      clipboard: { writeText: async () => {} },
      script: (http) => http.on('GET', '/user/info', () => new Promise(() => {})), // never answers
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Account' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('button', { name: 'UID' }));
    expect(await screen.findByText('No content provided to copy')).toBeTruthy();
    h.core.stop();
  });

  it('Logout calls the server, then the core navigates to login with the redirect and the toast shows', async () => {
    const h = renderShell({ path: '/my/coupon', stored: { token: 't-1' } });
    await waitFor(() => expect(h.core.session.getSnapshot().context.userInfo).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(h.path()).toBe('/login?redirect=%2Fmy%2Fcoupon'));
    expect(h.http.requests.some((r) => r.path === '/user/logout')).toBe(true);
    expect(h.storage.get('token')).toBeNull();
    expect(await screen.findByTestId('login-link')).toBeTruthy();
    h.core.stop();
  });

  it('a logged-in user going to /login or /register lands on /', async () => {
    for (const path of ['/login', '/register']) {
      const h = renderShell({ path, stored: { token: 't-1' } });
      await waitFor(() => expect(h.path()).toBe('/'));
      h.core.stop();
      cleanup();
    }
  });
});

describe('routing', () => {
  it('/mFutures and /stdFuture redirect to the stored pair, default BTCUSDT', async () => {
    const a = renderShell({ path: '/mFutures' });
    await waitFor(() => expect(a.path()).toBe('/mFutures/BTCUSDT'));
    a.core.stop();
    cleanup();
    const b = renderShell({ path: '/stdFuture', stored: { trade_pair: 'ETHUSDT' } });
    await waitFor(() => expect(b.path()).toBe('/stdFuture/ETHUSDT'));
    b.core.stop();
  });

  it('/my redirects to /my/dashboard', async () => {
    const h = renderShell({ path: '/my' });
    await waitFor(() => expect(h.path()).toBe('/my/dashboard'));
    h.core.stop();
  });

  it('an unknown path shows the not-found screen inside the shell', async () => {
    const h = renderShell({ path: '/no/such/page' });
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(screen.getByTestId('topbar-desktop')).toBeTruthy();
    h.core.stop();
  });

  it('a screen not written yet shows the NotYetAvailable panel inside the shell', async () => {
    const h = renderShell({ path: '/copy' });
    expect(await screen.findByText('This page is not available yet')).toBeTruthy();
    expect(screen.getByTestId('footer')).toBeTruthy();
    h.core.stop();
  });

  it('scrolls to top on every navigation', async () => {
    const calls: unknown[] = [];
    window.scrollTo = ((...a: unknown[]) => void calls.push(a)) as typeof window.scrollTo;
    const h = renderShell({ path: '/' });
    await screen.findByTestId('topbar-desktop');
    const before = calls.length;
    await act(() => h.router.navigate('/market'));
    expect(calls.length).toBe(before + 1);
    window.scrollTo = () => {};
    h.core.stop();
  });
});

describe('route flags', () => {
  it('desktop footer only on showTabBar routes', async () => {
    const h = renderShell({ path: '/' });
    expect(await screen.findByTestId('footer')).toBeTruthy();
    await act(() => h.router.navigate('/login'));
    expect(screen.queryByTestId('footer')).toBeNull();
    await act(() => h.router.navigate('/my/coupon'));
    expect(screen.queryByTestId('footer')).toBeNull();
    h.core.stop();
  });

  it('mobile bottom bar hidden where showAppNav is false; active item follows the path prefix', async () => {
    const h = renderShell({ path: '/', width: 390 });
    expect(await screen.findByTestId('topbar-mobile')).toBeTruthy();
    const active = (): string | null =>
      screen.getByTestId('bottom-bar').querySelector('.is-active')?.getAttribute('data-key') ?? null;
    expect(active()).toBe('home');
    await act(() => h.router.navigate('/stdFuture/BTCUSDT'));
    expect(active()).toBe('trade');
    await act(() => h.router.navigate('/my/order/futures'));
    expect(active()).toBe('assets');
    await act(() => h.router.navigate('/help-center'));
    expect(active()).toBeNull();
    await act(() => h.router.navigate('/login'));
    expect(screen.queryByTestId('bottom-bar')).toBeNull();
    expect(screen.queryByTestId('footer')).toBeNull();
    h.core.stop();
  });

  it('a route without a name warns and still renders', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { buildRoutes } = await import('../../../src/ui/app/routes.tsx');
    const routes = buildRoutes([{ path: '/', name: '', screen: 'notFound' }]);
    const { createMemoryRouter, RouterProvider } = await import('react-router-dom');
    const h = renderShell();
    h.unmount();
    const { render } = await import('@testing-library/react');
    const { AppProviders } = await import('../../../src/ui/app/App.tsx');
    const { createI18n } = await import('../../../src/ui/i18n/index.ts');
    const { createUiPrefs } = await import('../../../src/ui/theme/uiPrefs.ts');
    render(
      <AppProviders
        core={h.core}
        i18n={createI18n('en')}
        env={{ prefs: createUiPrefs(h.storage, document, 1440), language: { storage: h.storage, doc: document, reload: () => {} }, clipboard: null }}
      >
        <RouterProvider router={createMemoryRouter(routes)} />
      </AppProviders>,
    );
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('route without a name'));
    warn.mockRestore();
    h.core.stop();
  });
});

describe('toasts across screens', () => {
  it('an error toast from the screen the user left is dismissed on the next one; a success toast stays', async () => {
    const { toast } = await import('sonner');
    const h = renderShell({ path: '/market' });
    await screen.findByTestId('topbar-desktop');
    act(() => {
      toast.error('Invalid verification code');
      toast.success('Login successful');
    });
    expect(await screen.findByText('Invalid verification code')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('topbar-desktop')).getByRole('link', { name: 'Home' }));
    await waitFor(() => expect(screen.queryByText('Invalid verification code')).toBeNull());
    expect(screen.getByText('Login successful')).toBeTruthy();
    h.core.stop();
  });
});
