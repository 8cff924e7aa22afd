// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { envelope } from '../../../src/ports/fakes.ts';
import { RegisterScreen } from '../../../src/ui/screens/register/RegisterScreen.tsx';
import { ResetPasswordScreen } from '../../../src/ui/screens/reset-password/ResetPasswordScreen.tsx';
import { renderScreen } from './authHarness.tsx';

afterEach(cleanup);

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('register', () => {
  it('prefills the referral code from ?inviteCode= or ?ref=', () => {
    renderScreen({ url: '/register?inviteCode=ABC123', path: '/register', screen: <RegisterScreen /> });
    expect((screen.getByLabelText('Referral code (optional)') as HTMLInputElement).value).toBe('ABC123');
    cleanup();
    renderScreen({ url: '/register?ref=XYZ', path: '/register', screen: <RegisterScreen /> });
    expect((screen.getByLabelText('Referral code (optional)') as HTMLInputElement).value).toBe('XYZ');
  });

  it('unchecked agreement: inline message and the user-agreement prompt; nothing is sent', async () => {
    const h = renderScreen({ url: '/register', path: '/register', screen: <RegisterScreen /> });
    type('Email', 'new@example.com');
    type('Email verification code', '123456');
    type('Password', 'secret12');
    type('Confirm password', 'secret12');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Please read and agree to the relevant agreement policies')).toBeTruthy();
    expect(await screen.findByText('Please check the user agreement')).toBeTruthy();
    expect(h.http.requests).toHaveLength(0);
  });

  it('Send code needs a valid email first, then posts a register code and counts down', async () => {
    const h = renderScreen({
      url: '/register',
      path: '/register',
      screen: <RegisterScreen />,
      script: (http) => http.on('POST', '/user/sendMailCode', envelope(200, 'Verification code sent')),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter an email')).toBeTruthy();
    expect(h.http.requests).toHaveLength(0);
    type('Email', 'new@example.com');
    await new Promise((r) => setTimeout(r, 470));
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('button', { name: 'Resend in 60s' })).toBeTruthy();
    expect(h.http.requests[0]).toMatchObject({ path: '/user/sendMailCode', body: { email: 'new@example.com', type: 'register' } });
    expect(await screen.findByText('Verification code sent')).toBeTruthy();
  });

  it('mismatched passwords are reported inline', async () => {
    renderScreen({ url: '/register', path: '/register', screen: <RegisterScreen /> });
    type('Password', 'secret12');
    type('Confirm password', 'secret13');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
  });

  it('success: posts the form, toasts the msg and goes to /login with the email', async () => {
    const h = renderScreen({
      url: '/register?ref=R1',
      path: '/register',
      screen: <RegisterScreen />,
      script: (http) => http.on('POST', '/user/register', envelope(200, 'Registration successful')),
    });
    type('Email', 'New@Example.com');
    type('Email verification code', '123456');
    type('Password', 'secret12');
    type('Confirm password', 'secret12');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/login?email=new%40example.com');
    expect(h.http.requests[0]).toMatchObject({
      path: '/user/register',
      body: { email: 'New@Example.com', code: '123456', password: 'secret12', confirmPassword: 'secret12', inviteCode: 'R1', agree: true },
    });
    expect(await screen.findByText('Registration successful')).toBeTruthy();
  });

  it('a server rejection shows its msg', async () => {
    renderScreen({
      url: '/register',
      path: '/register',
      screen: <RegisterScreen />,
      script: (http) => http.on('POST', '/user/register', envelope(409, 'This email is already registered')),
    });
    type('Email', 'dup@example.com');
    type('Email verification code', '123456');
    type('Password', 'secret12');
    type('Confirm password', 'secret12');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getAllByText('This email is already registered').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('location')).toBeNull();
  });
});

describe('reset password', () => {
  it('shows the 48-hour withdrawal notice', () => {
    renderScreen({ url: '/reset-password', path: '/reset-password', screen: <ResetPasswordScreen /> });
    expect(screen.getByRole('note').textContent).toContain('48 hours');
  });

  it('validates, posts a reset code and the reset, then goes to /login', async () => {
    const h = renderScreen({
      url: '/reset-password',
      path: '/reset-password',
      screen: <ResetPasswordScreen />,
      script: (http) => {
        http.on('POST', '/user/sendMailCode', envelope(200, 'Verification code sent'));
        http.on('POST', '/user/resetPassword', envelope(200, 'Password reset'));
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Please enter an email')).toBeTruthy();
    expect(screen.getByText('Please enter the verification code')).toBeTruthy();
    expect(h.http.requests).toHaveLength(0);

    type('Email', 'old@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('button', { name: 'Resend in 60s' });
    expect(h.http.requests[0]).toMatchObject({ body: { email: 'old@example.com', type: 'reset' } });

    type('Email verification code', '222222');
    type('New password', 'newpass1');
    type('Confirm password', 'newpass1');
    await new Promise((r) => setTimeout(r, 470));
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/login?email=old%40example.com');
    expect(h.http.requests[1]).toMatchObject({
      path: '/user/resetPassword',
      body: { email: 'old@example.com', code: '222222', password: 'newpass1', confirmPassword: 'newpass1' },
    });
  });
});
