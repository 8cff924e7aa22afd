// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '../../../src/ports/fakes.ts';
import { LoginScreen } from '../../../src/ui/screens/login/LoginScreen.tsx';
import { pastDebounce, renderScreen, userInfo } from './authHarness.tsx';

afterEach(cleanup);

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function renderLogin(url = '/login') {
  return renderScreen({ url, path: '/login', screen: <LoginScreen /> });
}

describe('login: SPEC §5 validation', () => {
  it('shows the required messages inline and sends nothing', async () => {
    const h = renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter an email')).toBeTruthy();
    expect(screen.getByText('Please enter a password')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(h.http.requests).toHaveLength(0);
  });

  it('shows the invalid-email and password-length messages', async () => {
    const h = renderLogin();
    type('Email', 'not-an-email');
    type('Password', '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter a valid email')).toBeTruthy();
    expect(screen.getByText('Password length must be between 6 and 16 characters')).toBeTruthy();
    expect(h.http.requests).toHaveLength(0);
  });

  it('has the forgot-password and register links, the QR panel and the 1.1.8 note', async () => {
    renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/reset-password');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
    expect(screen.getByText('Requires app version 1.1.8 or above')).toBeTruthy();
    const img = await screen.findByAltText('Login QR code');
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  });

  it('prefills the email from ?email=', () => {
    renderLogin('/login?email=new%40example.com');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('new@example.com');
  });
});

describe('login: security step with the real session core', () => {
  it('email code: check → send code (countdown) → login → token stored, toast, redirect', async () => {
    const h = renderScreen({
      url: '/login?redirect=%2Fmy%2Fsettings%2Fsecurity',
      path: '/login',
      screen: <LoginScreen />,
      script: (http) => {
        http.on('POST', '/user/authType', envelope(200, 'success', { authType: 'email' }));
        http.on('POST', '/user/sendMailCode', envelope(200, 'Verification code sent'));
        http.on('POST', '/user/login', envelope(200, 'Login successful', { token: 'tok-1' }));
        http.on('GET', '/user/info', envelope(200, 'success', userInfo()));
      },
    });
    type('Email', ' Trader@Example.com ');
    type('Password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const step = await screen.findByRole('form', { name: 'Security verification' });
    // issue 26: nothing was sent yet, so the step does not say it was
    expect(within(step).getByTestId('security-hint').textContent).toBe('Press “Send code” to get a verification code at Trader@Example.com');
    expect(h.http.requests[0]).toMatchObject({ method: 'POST', path: '/user/authType', body: { email: 'Trader@Example.com', password: 'secret12' } });

    fireEvent.click(within(step).getByRole('button', { name: 'Send code' }));
    expect(await within(step).findByRole('button', { name: 'Resend in 60s' })).toBeTruthy();
    expect((within(step).getByRole('button', { name: 'Resend in 60s' }) as HTMLButtonElement).disabled).toBe(true);
    expect(h.http.requests[1]).toMatchObject({ path: '/user/sendMailCode', body: { email: 'Trader@Example.com', type: 'login' } });
    expect(within(step).getByTestId('security-hint').textContent).toBe('Enter the code we sent to Trader@Example.com');

    // A five-digit code is refused on the client.
    type('Email verification code', '12345');
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm' }));
    expect(await within(step).findByText('Please enter the 6-digit code')).toBeTruthy();
    expect(h.http.requests).toHaveLength(2);

    await pastDebounce();
    type('Email verification code', '123456');
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByTestId('location')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/my/settings/security');
    expect(h.storage.get('token')).toBe('tok-1');
    expect(h.http.requests[2]).toMatchObject({ path: '/user/login', form: true, body: { code: '123456', password: 'secret12' } });
    expect(h.outputs).toContainEqual({ type: 'toast', level: 'success', msg: 'Login successful' });
  });

  it('google code: no Send code button; a wrong code shows the server msg and stays in the step', async () => {
    const h = renderScreen({
      url: '/login',
      path: '/login',
      screen: <LoginScreen />,
      script: (http) => {
        http.on('POST', '/user/authType', envelope(200, 'success', { authType: 'google' }));
        http.on('POST', '/user/login', envelope(400, 'Invalid Google authenticator code'));
      },
    });
    type('Email', 'g@example.com');
    type('Password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const step = await screen.findByRole('form', { name: 'Security verification' });
    expect(within(step).getByText('Enter the 6-digit code from Google Authenticator')).toBeTruthy();
    expect(within(step).queryByRole('button', { name: 'Send code' })).toBeNull();
    type('Google authenticator code', '654321');
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm' }));
    expect(await within(step).findByText('Invalid Google authenticator code')).toBeTruthy();
    expect(h.storage.get('token')).toBeNull();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('cancel returns to the credentials form', async () => {
    renderScreen({
      url: '/login',
      path: '/login',
      screen: <LoginScreen />,
      script: (http) => http.on('POST', '/user/authType', envelope(200, 'success', { authType: 'google' })),
    });
    type('Email', 'g@example.com');
    type('Password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const step = await screen.findByRole('form', { name: 'Security verification' });
    fireEvent.click(within(step).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeTruthy();
  });

  it('wrong credentials: the server msg is shown on the form', async () => {
    renderScreen({
      url: '/login',
      path: '/login',
      screen: <LoginScreen />,
      script: (http) => http.on('POST', '/user/authType', envelope(400, 'Incorrect email or password')),
    });
    type('Email', 'g@example.com');
    type('Password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const form = screen.getByRole('form', { name: 'Log in' });
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Incorrect email or password'));
  });

  it('ignores an off-site redirect', async () => {
    renderScreen({
      url: '/login?redirect=%2F%2Fevil.example',
      path: '/login',
      screen: <LoginScreen />,
      script: (http) => {
        http.on('POST', '/user/authType', envelope(200, 'success', { authType: 'google' }));
        http.on('POST', '/user/login', envelope(200, 'ok', { token: 't' }));
        http.on('GET', '/user/info', envelope(200, 'success', userInfo()));
      },
    });
    type('Email', 'g@example.com');
    type('Password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('form', { name: 'Security verification' });
    type('Google authenticator code', '111111');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
  });
});

describe('login on a phone', () => {
  it('shows password/QR tabs instead of the side panel', async () => {
    const old = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { value: 390, configurable: true });
    try {
      renderLogin();
      expect(screen.queryByAltText('Login QR code')).toBeNull();
      fireEvent.click(await screen.findByRole('tab', { name: 'QR code login' }));
      expect(await screen.findByAltText('Login QR code')).toBeTruthy();
      expect(screen.queryByLabelText('Email')).toBeNull();
    } finally {
      Object.defineProperty(window, 'innerWidth', { value: old, configurable: true });
    }
  });
});
