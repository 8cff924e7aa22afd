import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { createApiClient } from '../../../src/api/client.ts';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import { provideSession } from '../../../src/machines/sessionMachine.ts';
import { createMemoryStorage, createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';

const INFO = { id: 7, nickname: 'n', avatar: '', cover_email: 'a***@x.io', kycStatus: 'unverified', googleBound: false, inviteCode: 'AB', withdrawLockUntil: 0, createdAt: 1 };

function setup(opts: { token?: string; path?: string } = {}) {
  const http = createScriptedHttp();
  const storage = createMemoryStorage(opts.token ? { token: opts.token } : {});
  const outputs: CoreOutput[] = [];
  let actorRef: { send(e: { type: 'session.unauthorized' }): void } | null = null;
  const api = createApiClient({
    http,
    onUnauthorized: () => actorRef?.send({ type: 'session.unauthorized' }),
    onNetworkError: (msg) => outputs.push({ type: 'toast', level: 'error', msg }),
  });
  http.on('POST', '/user/authType', (req) =>
    (req.body as { password: string }).password === 'secret1' ? envelope(200, 'ok', { authType: 'email' }) : envelope(400, 'Wrong email or password'),
  );
  http.on('POST', '/user/sendMailCode', envelope(200, 'Code sent'));
  http.on('POST', '/user/login', (req) =>
    (req.body as { code: string }).code === '123456' ? envelope(200, 'Login successful', { token: 'tok-abc-123' }) : envelope(400, 'Invalid code'),
  );
  http.on('GET', '/user/info', envelope(200, 'ok', INFO));
  http.on('GET', '/user/logout', envelope(200, 'Logged out'));
  const clock = new SimulatedClock();
  const actor = createActor(provideSession({ api, storage, location: () => opts.path ?? '/market' }), {
    clock,
    input: { token: storage.get('token') },
  });
  actorRef = actor;
  actor.on('*', (o) => outputs.push(o));
  actor.start();
  const top = () => {
    const v = actor.getSnapshot().value;
    return typeof v === 'string' ? v : Object.keys(v)[0];
  };
  return { http, storage, outputs, actor, top };
}

describe('sessionMachine', () => {
  it('starts as guest without a stored token', () => {
    const { top, actor, http } = setup();
    expect(top()).toBe('guest');
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(http.requests).toHaveLength(0);
  });

  it('a 401 while a visitor browses (no token) keeps them where they are: no navigate to /login', () => {
    const { top, actor, outputs } = setup({ path: '/copy' });
    actor.send({ type: 'session.unauthorized' });
    expect(top()).toBe('guest');
    expect(outputs.filter((o) => o.type === 'navigate')).toEqual([]);
  });

  it('a 401 with a session drops it and navigates to /login with the way back', async () => {
    const { top, actor, outputs } = setup({ token: 'stored-tok', path: '/copy' });
    await waitFor(actor, (s) => s.context.userInfo !== null);
    actor.send({ type: 'session.unauthorized' });
    expect(top()).toBe('guest');
    expect(outputs.filter((o) => o.type === 'navigate')).toEqual([{ type: 'navigate', to: '/login?redirect=%2Fcopy' }]);
  });

  it('starts logged in with a stored token and fetches the user info', async () => {
    const { actor, http, top } = setup({ token: 'stored-tok' });
    expect(top()).toBe('loggedIn');
    await waitFor(actor, (s) => s.context.userInfo !== null);
    expect(actor.getSnapshot().context.userInfo).toEqual(INFO);
    expect(http.requests.map((r) => r.path)).toEqual(['/user/info']);
  });

  it('email login: authType → securityStep → sendCode → login stores token, fetches info, toasts the server msg', async () => {
    const { actor, http, storage, outputs, top } = setup();
    actor.send({ type: 'user.checkAuthType', email: 'a@x.io', password: 'secret1' });
    expect(top()).toBe('authenticating');
    await waitFor(actor, (s) => s.matches('securityStep'));
    expect(actor.getSnapshot().context.authType).toBe('email');

    actor.send({ type: 'user.sendCode' });
    expect(actor.getSnapshot().matches({ securityStep: 'sendingCode' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ securityStep: 'idle' }));
    expect(actor.getSnapshot().context.codeSent).toBe(true);
    expect(http.requests[1]).toEqual({ method: 'POST', path: '/user/sendMailCode', body: { email: 'a@x.io', type: 'login' } });
    expect(outputs).toContainEqual({ type: 'toast', level: 'success', msg: 'Code sent' });

    actor.send({ type: 'user.login', code: '123456' });
    expect(top()).toBe('loggingIn');
    await waitFor(actor, (s) => s.context.userInfo !== null);
    const login = http.requests[2];
    expect(login).toMatchObject({ method: 'POST', path: '/user/login', form: true, body: { email: 'a@x.io', password: 'secret1', code: '123456' } });
    expect(storage.get('token')).toBe('tok-abc-123');
    const c = actor.getSnapshot().context;
    expect(c.token).toBe('tok-abc-123');
    expect(c.password).toBe('');
    expect(top()).toBe('loggedIn');
    expect(outputs).toContainEqual({ type: 'toast', level: 'success', msg: 'Login successful' });
  });

  it('google auth type: security step without email code sending', async () => {
    const { actor, http, top } = setup();
    http.on('POST', '/user/authType', envelope(200, 'ok', { authType: 'google' }));
    actor.send({ type: 'user.checkAuthType', email: 'g@x.io', password: 'secret1' });
    await waitFor(actor, (s) => s.matches('securityStep'));
    expect(actor.getSnapshot().context.authType).toBe('google');
    actor.send({ type: 'user.sendCode' });
    expect(actor.getSnapshot().matches({ securityStep: 'idle' })).toBe(true);
    actor.send({ type: 'user.login', code: '123456' });
    await waitFor(actor, (s) => s.matches('loggedIn'));
    expect(top()).toBe('loggedIn');
    expect(http.requests.some((r) => r.path === '/user/sendMailCode')).toBe(false);
  });

  it('wrong password: back to guest with the server msg in context and an error toast', async () => {
    const { actor, outputs } = setup();
    actor.send({ type: 'user.checkAuthType', email: 'a@x.io', password: 'nope123' });
    await waitFor(actor, (s) => s.matches('guest'));
    expect(actor.getSnapshot().context.error).toBe('Wrong email or password');
    expect(actor.getSnapshot().context.password).toBe('');
    expect(outputs).toContainEqual({ type: 'toast', level: 'error', msg: 'Wrong email or password' });
  });

  it('wrong code: stays in the security step with the error', async () => {
    const { actor, storage } = setup();
    actor.send({ type: 'user.checkAuthType', email: 'a@x.io', password: 'secret1' });
    await waitFor(actor, (s) => s.matches('securityStep'));
    actor.send({ type: 'user.login', code: '000000' });
    await waitFor(actor, (s) => s.matches('securityStep'));
    expect(actor.getSnapshot().context.error).toBe('Invalid code');
    expect(storage.get('token')).toBeNull();
  });

  it('user.cancel from the security step resets to guest', async () => {
    const { actor } = setup();
    actor.send({ type: 'user.checkAuthType', email: 'a@x.io', password: 'secret1' });
    await waitFor(actor, (s) => s.matches('securityStep'));
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('guest');
    expect(actor.getSnapshot().context).toMatchObject({ email: '', password: '', authType: null });
  });

  it('logout: server call, token removed, context reset, navigate to login with redirect', async () => {
    const { actor, storage, outputs, http } = setup({ token: 't1', path: '/my/coupon?x=1' });
    await waitFor(actor, (s) => s.context.userInfo !== null);
    actor.send({ type: 'user.logout' });
    expect(actor.getSnapshot().value).toBe('loggingOut');
    await waitFor(actor, (s) => s.matches('guest'));
    expect(http.requests.at(-1)).toEqual({ method: 'GET', path: '/user/logout' });
    expect(storage.get('token')).toBeNull();
    expect(actor.getSnapshot().context).toMatchObject({ token: null, userInfo: null });
    expect(outputs).toContainEqual({ type: 'navigate', to: '/login?redirect=%2Fmy%2Fcoupon%3Fx%3D1' });
  });

  it('failed logout keeps the session', async () => {
    const { actor, storage, http } = setup({ token: 't1' });
    http.on('GET', '/user/logout', envelope(500, ''));
    actor.send({ type: 'user.logout' });
    await waitFor(actor, (s) => s.matches('loggedIn'));
    expect(storage.get('token')).toBe('t1');
    expect(actor.getSnapshot().context.error).toBe('Error');
  });

  it('resetToken clears the token with no server call and no navigation', async () => {
    const { actor, storage, http, outputs } = setup({ token: 't1' });
    await waitFor(actor, (s) => s.context.userInfo !== null);
    const before = http.requests.length;
    actor.send({ type: 'user.resetToken' });
    expect(actor.getSnapshot().value).toBe('guest');
    expect(storage.get('token')).toBeNull();
    expect(http.requests).toHaveLength(before);
    expect(outputs.some((o) => o.type === 'navigate')).toBe(false);
  });

  it('a 401 from any call clears the token and navigates to login with the current path', async () => {
    const { actor, storage, outputs, http } = setup({ token: 'expired', path: '/mFutures/BTCUSDT' });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'idle' }));
    http.on('GET', '/user/info', envelope(401, 'Token expired'));
    actor.send({ type: 'user.fetchInfo' });
    await waitFor(actor, (s) => s.matches('guest'));
    expect(storage.get('token')).toBeNull();
    expect(outputs).toContainEqual({ type: 'navigate', to: '/login?redirect=%2FmFutures%2FBTCUSDT' });
  });

  it('user.fetchInfo refetches; user.loggedInWithToken logs in from elsewhere', async () => {
    const { actor, http, storage } = setup();
    actor.send({ type: 'user.loggedInWithToken', token: 'qr-token-1' });
    await waitFor(actor, (s) => s.context.userInfo !== null);
    expect(storage.get('token')).toBe('qr-token-1');
    actor.send({ type: 'user.fetchInfo' });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'idle' }));
    expect(http.requests.filter((r) => r.path === '/user/info')).toHaveLength(2);
  });

  it('user.fetchInfo while info is already loading neither cancels nor repeats the request', async () => {
    const { actor, http } = setup({ token: 't1' });
    expect(actor.getSnapshot().matches({ loggedIn: 'fetchingInfo' })).toBe(true);
    actor.send({ type: 'user.fetchInfo' });
    await waitFor(actor, (s) => s.context.userInfo !== null);
    expect(http.requests.filter((r) => r.path === '/user/info')).toHaveLength(1);
  });
});
