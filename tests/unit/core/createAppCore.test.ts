import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor } from 'xstate';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';

function boot(stored: Record<string, string> = {}) {
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const http = createScriptedHttp();
  const socket = createScriptedSocketFactory();
  const storage = createMemoryStorage(stored);
  http.on('GET', '/user/info', envelope(200, 'ok', { id: 1, cover_email: 'a***@b.c', avatar: '' }));
  http.on('POST', '/user/authType', envelope(200, 'ok', { authType: 'google' }));
  http.on('POST', '/user/login', envelope(200, 'Welcome', { token: 'fresh-token-1' }));
  http.on('GET', '/user/logout', envelope(200, 'Bye'));
  let path = '/market';
  const core = createAppCore({ clock, http, socket, storage, random: { id: () => 'id' } }, { location: () => path });
  const outputs: CoreOutput[] = [];
  const frames: InboundFrame[] = [];
  core.outputs$.subscribe((o) => outputs.push(o));
  core.marketFrames$.subscribe((f) => frames.push(f));
  const urls = () => socket.sockets.map((s) => s.url);
  return { clock, http, socket, storage, core, outputs, frames, urls, setPath: (p: string) => (path = p) };
}

describe('createAppCore (headless)', () => {
  it('opens the market socket on start and no user socket for a guest', () => {
    const { urls, core } = boot();
    expect(urls()).toEqual(['/api/ws/market']);
    expect(core.session.getSnapshot().value).toBe('guest');
    core.stop();
  });

  it('with a stored token: user socket opens too and info loads', async () => {
    const { urls, core, socket } = boot({ token: 'stored-1' });
    expect(urls()).toEqual(['/api/ws/market', '/api/ws/user']);
    socket.sockets[1]?.open();
    expect(JSON.parse(socket.sockets[1]?.sent[0] ?? '{}')).toEqual({ action: 'auth', token: 'stored-1' });
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    core.stop();
  });

  it('login starts the user socket and toasts; logout stops it without reconnect and navigates', async () => {
    const { core, urls, outputs, storage, clock, socket, setPath } = boot();
    core.session.send({ type: 'user.checkAuthType', email: 'a@b.c', password: 'secret1' });
    await waitFor(core.session, (s) => s.matches('securityStep'));
    core.session.send({ type: 'user.login', code: '123456' });
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    expect(storage.get('token')).toBe('fresh-token-1');
    expect(urls()).toEqual(['/api/ws/market', '/api/ws/user']);
    expect(outputs).toContainEqual({ type: 'toast', level: 'success', msg: 'Welcome' });

    setPath('/my/dashboard');
    core.session.send({ type: 'user.logout' });
    await waitFor(core.session, (s) => s.matches('guest'));
    expect(socket.sockets[1]?.closedByApp).toBe(true);
    clock.increment(60_000);
    expect(urls()).toEqual(['/api/ws/market', '/api/ws/user']); // no new user socket after logout
    expect(outputs.at(-1)).toEqual({ type: 'navigate', to: '/login?redirect=%2Fmy%2Fdashboard' });
    core.stop();
  });

  it('a 401 on any api call resets the session and navigates; network errors become error toasts', async () => {
    const { core, http, outputs, storage } = boot({ token: 'old' });
    http.on('GET', '/wallet', envelope(401, 'expired'));
    await expect(core.api.get('/wallet')).rejects.toMatchObject({ code: 401 });
    expect(core.session.getSnapshot().value).toBe('guest');
    expect(storage.get('token')).toBeNull();
    expect(outputs).toContainEqual({ type: 'navigate', to: '/login?redirect=%2Fmarket' });
    await expect(core.api.get('/nowhere')).rejects.toThrow();
    expect(outputs.at(-1)).toEqual({ type: 'toast', level: 'error', msg: 'no script for GET /nowhere' });
    core.stop();
  });

  it('market frames reach marketFrames$ and everything is in the redacted event log', () => {
    const { core, socket, frames } = boot({ token: 'stored-secret-token' });
    socket.sockets[0]?.open();
    socket.sockets[0]?.frame({ type: 'trade', symbol: 'BTCUSDT', id: 1 });
    socket.sockets[0]?.error('net down');
    expect(frames).toEqual([{ type: 'trade', symbol: 'BTCUSDT', id: 1 }]);
    const kinds = core.log.records().map((r) => r.kind);
    expect(kinds).toContain('storage.init');
    expect(kinds).toContain('ws.in');
    expect(kinds).toContain('socket.error');
    expect(core.log.toJsonLines()).not.toContain('stored-secret-token');
    core.stop();
  });

  it('a malformed frame is logged as socket.badFrame, never delivered, and the socket stays open', () => {
    const { core, socket, frames } = boot();
    socket.sockets[0]?.open();
    socket.sockets[0]?.frame('not json {');
    socket.sockets[0]?.frame('[1,2]');
    socket.sockets[0]?.frame({ type: 'ticker', symbol: 'ETHUSDT' });
    expect(frames).toEqual([{ type: 'ticker', symbol: 'ETHUSDT' }]);
    const bad = core.log.records().filter((r) => r.kind === 'socket.badFrame');
    expect(bad.map((r) => [r.socket, r.length])).toEqual([['market', 10], ['market', 5]]);
    expect(core.market.getSnapshot().matches({ live: 'open' })).toBe(true);
    core.stop();
  });
});
