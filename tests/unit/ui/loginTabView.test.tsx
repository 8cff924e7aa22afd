// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginScreen } from '../../../src/ui/screens/login/LoginScreen.tsx';
import { renderScreen } from './authHarness.tsx';

const desktopWidth = window.innerWidth;
afterEach(() => {
  cleanup();
  Object.defineProperty(window, 'innerWidth', { value: desktopWidth, configurable: true });
});

/** The phone login's tab (email / QR) is view state 'login.tab' (issue 16): in the record, shown by a replay. */
describe('login tab as view state', () => {
  it('the QR tab sets login.tab; a replayed value shows that tab; an invalid one reads as the email form', async () => {
    Object.defineProperty(window, 'innerWidth', { value: 390, configurable: true }); // the phone layout has the tabs
    const h = renderScreen({ url: '/login', path: '/login', screen: <LoginScreen /> });
    const qr = await screen.findByRole('tab', { name: 'QR code login' });
    await act(async () => {
      fireEvent.click(qr);
    });
    expect(h.core.view.get('login.tab')).toBe('qr');
    expect(screen.getByRole('tab', { name: 'QR code login' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByLabelText('Password')).toBeNull();
    act(() => h.core.view.apply('login.tab', 'password'));
    expect(screen.getByRole('tab', { name: 'Email login' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('Password')).toBeTruthy();
    act(() => h.core.view.apply('login.tab', 'qr'));
    expect(screen.queryByLabelText('Password')).toBeNull();
    act(() => h.core.view.apply('login.tab', 'sms'));
    expect(screen.getByRole('tab', { name: 'Email login' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });
});
