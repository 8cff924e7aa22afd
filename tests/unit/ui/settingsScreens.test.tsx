// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import { AvatarEditor } from '../../../src/ui/screens/settings/AvatarEditor.tsx';
import { LoginHistoryScreen } from '../../../src/ui/screens/settings/LoginHistoryScreen.tsx';
import { PasswordScreen } from '../../../src/ui/screens/settings/PasswordScreen.tsx';
import { PreferenceScreen } from '../../../src/ui/screens/settings/PreferenceScreen.tsx';
import { SecurityScreen } from '../../../src/ui/screens/settings/SecurityScreen.tsx';
import { pastDebounce, renderScreen, userInfo } from './authHarness.tsx';
import type { ScriptedHttp } from '../../../src/ports/fakes.ts';

afterEach(cleanup);

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function loggedIn(path: string, el: React.ReactElement, script: (http: ScriptedHttp) => void, info = userInfo()) {
  return renderScreen({
    url: path,
    path,
    screen: el,
    storage: { token: 'tok' },
    script: (http) => {
      http.on('GET', '/user/info', envelope(200, 'success', info));
      script(http);
    },
  });
}

const count = (reqs: HttpRequest[], path: string) => reqs.filter((r) => r.path === path).length;

describe('password', () => {
  it('shows the 24-hour notice, validates, posts and refetches user info', async () => {
    const h = loggedIn('/my/settings/password', <PasswordScreen />, (http) =>
      http.on('POST', '/user/modify-password', envelope(200, 'Password changed')),
    );
    const notice = screen.getByRole('note').textContent ?? '';
    expect(notice).toContain('withdrawals, C2C sales and payments');
    expect(notice).toContain('24 hours');
    type('New password', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    expect((await screen.findAllByText('Please enter a password')).length).toBe(2);
    expect(screen.getByText('Password length must be between 6 and 16 characters')).toBeTruthy();
    expect(count(h.http.requests, '/user/modify-password')).toBe(0);

    type('Current password', 'oldpass1');
    type('New password', 'newpass1');
    type('Confirm new password', 'newpass1');
    await pastDebounce();
    const infoCalls = count(h.http.requests, '/user/info');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(h.http.requests.find((r) => r.path === '/user/modify-password')?.body).toEqual({
      oldPassword: 'oldpass1',
      password: 'newpass1',
      confirmPassword: 'newpass1',
    });
    await waitFor(() => expect(count(h.http.requests, '/user/info')).toBe(infoCalls + 1));
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });
});

describe('password: same as the old one (issue 26)', () => {
  it('is refused in the form with a clear message, nothing is posted; a stale server answer does not stay next to it', async () => {
    const h = loggedIn('/my/settings/password', <PasswordScreen />, (http) => http.on('POST', '/user/modify-password', envelope(400, 'Incorrect old password')));
    type('Current password', 'wrongpw1');
    type('New password', 'newpass1');
    type('Confirm new password', 'newpass1');
    await pastDebounce();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('Incorrect old password').length).toBeGreaterThan(0);
    expect(count(h.http.requests, '/user/modify-password')).toBe(1);
    type('Current password', 'newpass1');
    await pastDebounce();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    expect(await screen.findByText('The new password must be different from the old one')).toBeTruthy();
    expect(screen.queryByText('Incorrect old password', { selector: '.auth-server-error' })).toBeNull();
    expect(count(h.http.requests, '/user/modify-password')).toBe(1);
  });
});

describe('security: Google authenticator bind', () => {
  it('unbound → Enable → QR + secret → code → bind → refetch shows Enabled', async () => {
    let bound = false;
    const h = loggedIn('/my/settings/security', <SecurityScreen />, (http) => {
      http.on('GET', '/user/info', () => envelope(200, 'success', userInfo({ googleBound: bound })));
      http.on('GET', '/user/get-google-code', envelope(200, 'success', {
        secret: 'JBSWY3DPEHPK3PXP',
        uri: 'otpauth://totp/RFT:a%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=RFT',
      }));
      http.on('POST', '/user/bind-google-authen', () => {
        bound = true;
        return envelope(200, 'Google authenticator bound');
      });
    });
    await waitFor(() => expect(screen.getByTestId('google-status').textContent).toBe('Not enabled'));
    expect(screen.getByText('a***@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const panel = await screen.findByRole('region', { name: 'Bind Google Authenticator' });
    expect((await within(panel).findByAltText('Google Authenticator QR code')).getAttribute('src')).toMatch(/^data:image\/png/);
    expect(within(panel).getByTestId('google-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeTruthy();

    type('Google authenticator code', '12');
    fireEvent.click(within(panel).getByRole('button', { name: 'Bind' }));
    expect(await within(panel).findByText('Please enter the 6-digit code')).toBeTruthy();
    expect(count(h.http.requests, '/user/bind-google-authen')).toBe(0);

    type('Google authenticator code', '123456');
    await pastDebounce();
    fireEvent.click(within(panel).getByRole('button', { name: 'Bind' }));
    await waitFor(() => expect(screen.getByTestId('google-status').textContent).toBe('Enabled'));
    expect(h.http.requests.find((r) => r.path === '/user/bind-google-authen')?.body).toEqual({ code: '123456' });
    expect(screen.queryByRole('region', { name: 'Bind Google Authenticator' })).toBeNull();
  });
});

describe('preference', () => {
  it('nickname: validates 1-20 characters and saves as multipart', async () => {
    const h = loggedIn('/my/settings/preference', <PreferenceScreen />, (http) =>
      http.on('POST', '/user/modify-info', envelope(200, 'Saved')),
    );
    await waitFor(() => expect(screen.getByTestId('nickname').textContent).toBe('trader'));
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    type('Nickname', '   ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nickname must be between 1 and 20 characters')).toBeTruthy();
    type('Nickname', 'Satoshi');
    await pastDebounce();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    const req = h.http.requests.find((r) => r.path === '/user/modify-info');
    expect(req?.body).toBeInstanceOf(FormData);
    expect((req?.body as FormData).get('nickname')).toBe('Satoshi');
  });

  it('kline colors: choosing a style and direction updates the page-wide up/down colors and storage', async () => {
    const h = loggedIn('/my/settings/preference', <PreferenceScreen />, () => {});
    fireEvent.click(screen.getByRole('radio', { name: /Traditional/ }));
    expect(document.documentElement.style.getPropertyValue('--up-fill').toLowerCase()).toBe('#74a700');
    fireEvent.click(screen.getByRole('radio', { name: /Red up/ }));
    expect(document.documentElement.style.getPropertyValue('--up-fill').toLowerCase()).toBe('#e50370');
    expect(JSON.parse(h.storage.get('kline_style') ?? '{}')).toEqual({ style: 'traditional', direction: 'redUpGreenDown' });
  });

  it('theme and language preferences', async () => {
    const h = loggedIn('/my/settings/preference', <PreferenceScreen />, () => {});
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement.classList.contains('theme-light')).toBe(true);
    expect(h.storage.get('theme')).toBe('light');
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'jp' } });
    expect(h.storage.get('lang')).toBe('jp');
    expect(h.reloads).toHaveLength(1);
  });
});

describe('avatar editor', () => {
  const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type });
  const choose = (f: File) => fireEvent.change(screen.getByLabelText('Choose image'), { target: { files: [f] } });

  it('refuses non-images and images over 2MB on the client', async () => {
    const h = loggedIn('/x', <AvatarEditor avatar="" onSaved={() => {}} />, () => {});
    choose(file('doc.pdf', 'application/pdf', 100));
    expect((await screen.findAllByText('Only image files are allowed!')).length).toBeGreaterThan(0);
    choose(file('big.png', 'image/png', 2 * 1024 * 1024 + 1));
    expect((await screen.findAllByText('The image must be at most 2MB')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(count(h.http.requests, '/user/modify-info')).toBe(0);
  });

  it('previews a valid image and uploads it as the avatar part', async () => {
    const urls: string[] = [];
    URL.createObjectURL = () => {
      urls.push('blob:preview');
      return 'blob:preview';
    };
    URL.revokeObjectURL = () => {};
    let saved = 0;
    const h = loggedIn('/x', <AvatarEditor avatar="" onSaved={() => void saved++} />, (http) =>
      http.on('POST', '/user/modify-info', envelope(200, 'Avatar updated')),
    );
    choose(file('me.png', 'image/png', 1000));
    expect((await screen.findByAltText('Avatar preview')).getAttribute('src')).toBe('blob:preview');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(saved).toBe(1));
    const body = h.http.requests.find((r) => r.path === '/user/modify-info')?.body as FormData;
    expect((body.get('avatar') as File).name).toBe('me.png');
    expect(body.get('nickname')).toBeNull();
  });
});

describe('login history', () => {
  const rec = (i: number) => ({ id: i, time: Date.UTC(2026, 0, 1, 12, 0, i), client: 'web', ip: `10.0.0.${i}`, account: 'a***@example.com' });

  it('shows a table of records and pages through them', async () => {
    const h = loggedIn('/my/settings/login-history', <LoginHistoryScreen />, (http) =>
      http.on('POST', '/user/login-history', (req) => {
        const page = (req.body as { page: number }).page;
        const list = page === 1 ? Array.from({ length: 10 }, (_, i) => rec(i + 1)) : [rec(11), rec(12)];
        return envelope(200, 'success', { list, total: 12, page, pageSize: 10 });
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('login-record')).toHaveLength(10));
    expect(screen.getByRole('columnheader', { name: 'IP' })).toBeTruthy();
    expect(screen.getByText('10.0.0.1')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('login-record')).toHaveLength(2));
    expect(screen.getByText('10.0.0.12')).toBeTruthy();
    expect(h.http.requests.filter((r) => r.path === '/user/login-history').map((r) => (r.body as { page: number }).page)).toEqual([1, 2]);
    // The page is view state (issue 16): in the store, and a replayed value pages back.
    expect(h.core.view.get('loginHistory.page')).toBe(2);
    act(() => h.core.view.apply('loginHistory.page', 1));
    await waitFor(() => expect(screen.getAllByTestId('login-record')).toHaveLength(10));
  });

  it('shows "No records" for an empty history', async () => {
    loggedIn('/my/settings/login-history', <LoginHistoryScreen />, (http) =>
      http.on('POST', '/user/login-history', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 10 })),
    );
    expect(await screen.findByText('No records')).toBeTruthy();
  });
});
