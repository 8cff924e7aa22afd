// @vitest-environment jsdom
import { contrast } from '../../../src/ui/theme/contrast.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderShell } from './shellHarness.tsx';

beforeAll(() => {
  window.scrollTo = () => {};
});
afterEach(() => cleanup());

describe('language and theme from the shell', () => {
  it('renders the stored language and switching stores it, sets <html lang> and reloads', async () => {
    const h = renderShell({ lang: 'hk' });
    expect(await screen.findByRole('link', { name: '首頁' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^語言: / }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitemradio', { name: '简体中文' }));
    expect(h.storage.get('lang')).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(h.reloads.count).toBe(1);
    h.core.stop();
  });

  it('choosing the current language does nothing', async () => {
    const h = renderShell({ lang: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: /^Language: / }));
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitemradio', { name: 'English' }));
    expect(h.reloads.count).toBe(0);
    expect(h.storage.get('lang')).toBeNull();
    h.core.stop();
  });

  it('theme toggle flips the root class and persists', async () => {
    const h = renderShell({ stored: { theme: 'dark' } });
    expect(document.documentElement.classList.contains('theme-dark')).toBe(true);
    fireEvent.click(await screen.findByTestId('theme-toggle'));
    expect(document.documentElement.classList.contains('theme-light')).toBe(true);
    expect(document.documentElement.classList.contains('theme-dark')).toBe(false);
    expect(h.storage.get('theme')).toBe('light');
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(h.storage.get('theme')).toBe('dark');
    h.core.stop();
  });

  it('kline setting drives the buy/sell fills (SPEC hex) and their readable text variants on the root', () => {
    const h = renderShell({ stored: { kline_style: JSON.stringify({ style: 'cvd', direction: 'redUpGreenDown' }), theme: 'light' } });
    const css = (name: string) => document.documentElement.style.getPropertyValue(name);
    expect(css('--up-fill')).toBe('#EC8D42');
    expect(css('--down-fill')).toBe('#1F8DF9');
    // orange and blue are too light to read on white: the text variants are darker, same hue family
    expect(css('--up')).not.toBe('#EC8D42');
    expect(contrast(css('--up'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(css('--down'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    fireEvent.click(screen.getByTestId('theme-toggle'));
    // dark surfaces: the light orange reads as it is
    expect(css('--up')).toBe('#EC8D42');
    expect(contrast(css('--down'), '#12161f')).toBeGreaterThanOrEqual(4.5);
    h.core.stop();
  });
});

describe('mobile drawer', () => {
  it('logged out: Login (with redirect) and Register, language drawer, dark-mode switch', async () => {
    const h = renderShell({ path: '/market', width: 390 });
    const bar = await screen.findByTestId('topbar-mobile');
    expect(within(bar).getByRole('link', { name: 'Sign up' })).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Menu' }));
    // the drawer's code (Radix Dialog) loads after the first paint or on the first tap (LazyDrawer)
    const drawer = await screen.findByTestId('mobile-drawer');
    expect(within(drawer).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login?redirect=%2Fmarket');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Trade' }));
    expect(within(drawer).getByRole('link', { name: 'USDT-M futures' }).getAttribute('href')).toBe('/mFutures');
    fireEvent.click(within(drawer).getByRole('switch'));
    expect(h.storage.get('theme')).toBe('light');
    fireEvent.click(within(drawer).getByRole('button', { name: /Language/ }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Language' })).getByRole('button', { name: '日本語' }));
    expect(h.storage.get('lang')).toBe('jp');
    expect(document.documentElement.lang).toBe('ja');
    h.core.stop();
  });

  it('logged in: summary, Deposit/Withdrawal and the expandable account menu', async () => {
    const h = renderShell({ width: 900, stored: { token: 't-1' } });
    await waitFor(() => expect(h.core.session.getSnapshot().context.userInfo).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByTestId('mobile-drawer');
    expect(within(drawer).getByText('ali***@example.com')).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Deposit' }).getAttribute('href')).toBe('/my/wallet/deposit');
    expect(within(drawer).getByRole('link', { name: 'Withdrawal' }).getAttribute('href')).toBe('/my/wallet/withdrawal');
    const account = within(drawer).getByRole('navigation', { name: 'Account' });
    fireEvent.click(within(account).getByRole('button', { name: 'Assets' }));
    expect(within(account).getByRole('link', { name: 'Fund account' }).getAttribute('href')).toBe('/my/assets/fund-account');
    fireEvent.click(within(account).getByRole('button', { name: 'Account' }));
    expect(within(account).getByRole('link', { name: 'Identity verification' }).getAttribute('href')).toBe('/my/settings/kyc');
    fireEvent.click(within(account).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(h.storage.get('token')).toBeNull());
    h.core.stop();
  });
});
