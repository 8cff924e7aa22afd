import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketAuthenticator } from '../../server/http/auth.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserEventBus } from '../../server/ws/userBus.ts';
import { CLOSE_UNAUTHORIZED, REVALIDATE_MS, userSocketPlugin } from '../../server/ws/userSocket.ts';
import { TOKEN_TTL_MS } from '../../server/db/repos/sessions.ts';
import { call, login, register, sendCode, startServer, type Harness } from './harness.ts';

/**
 * Issue 10: a revoked token must not keep its /api/ws/user socket. Real server (buildApp), real
 * sessions, real sockets: after logout, password reset and password change the socket of the
 * revoked token closes with 4001 (the app's 401 flow) within 1 s, and no frame published after the
 * revocation reaches it, while the bus keeps publishing the whole time.
 */

type Frame = { type: string; data?: { seq?: number } } & Record<string, unknown>;

interface UserConn {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
}

let h: Harness | null = null;
let pump: ReturnType<typeof setInterval> | null = null;
const sockets: WebSocket[] = [];

afterEach(async () => {
  if (pump !== null) clearInterval(pump);
  pump = null;
  for (const s of sockets.splice(0)) s.terminate();
  await h?.close();
  h = null;
});

async function start(): Promise<{ h: Harness; bus: UserEventBus }> {
  const bus = createUserEventBus();
  h = await startServer({
    plugins: [
      async (app) => {
        await app.register(userSocketPlugin, { bus, clock: app.deps.clock, authenticate: socketAuthenticator(app.deps.db, app.deps.clock) });
      },
    ],
  });
  return { h, bus };
}

/** Opens the user socket, authenticates and resolves after the `authed` frame. */
function openUser(base: string, token: string): Promise<UserConn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/ws/user`);
    sockets.push(ws);
    const frames: Frame[] = [];
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as Frame;
      if (f.type === 'authed') resolve({ ws, frames, closed });
      else frames.push(f);
    });
    ws.once('open', () => ws.send(JSON.stringify({ action: 'auth', token })));
    ws.once('error', reject);
  });
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_r, rej) => setTimeout(() => rej(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

/**
 * Publishes a numbered balance frame for `userId` every 2 ms (the trading engine never stops) and
 * remembers the number current when the revocation hub fired first: every frame a revoked socket
 * received must be older than that.
 */
function pumpFrames(harness: Harness, bus: UserEventBus, userId: number): { revokedAt: () => number | null; seq: () => number } {
  let seq = 0;
  let revokedAt: number | null = null;
  harness.app.deps.revocations.subscribe(() => {
    revokedAt ??= seq;
  });
  pump = setInterval(() => bus.publish(userId, { type: 'balance', data: { seq: ++seq } }), 2);
  return { revokedAt: () => revokedAt, seq: () => seq };
}

async function userId(harness: Harness, token: string): Promise<number> {
  return (await call<{ id: number }>(harness, '/user/info', { token })).data.id;
}

/** The frames arrived, then the socket closed 4001 within 1 s, with nothing published after the revocation. */
async function expectRevoked(conn: UserConn, p: { revokedAt: () => number | null }): Promise<void> {
  const closed = await within(conn.closed, 1000, 'close after revocation');
  expect(closed.code).toBe(CLOSE_UNAUTHORIZED);
  const revokedAt = p.revokedAt();
  expect(revokedAt).not.toBeNull();
  const seqs = conn.frames.map((f) => f.data?.seq ?? Number.NaN);
  expect(seqs.every((s) => Number.isInteger(s) && s <= (revokedAt ?? 0))).toBe(true);
  expect(conn.ws.readyState).toBe(WebSocket.CLOSED);
}

describe('user socket and token revocation (real sockets)', () => {
  it('logout closes the socket of that token with 4001 at once; no frame after the revocation', async () => {
    const { h, bus } = await start();
    await register(h, 'out@example.com');
    const token = await login(h, 'out@example.com');
    const conn = await openUser(h.base, token);
    const p = pumpFrames(h, bus, await userId(h, token));
    while (conn.frames.length < 3) await new Promise((r) => setTimeout(r, 5)); // it streams before
    const r = await call(h, '/user/logout', { token });
    expect(r.code).toBe(200);
    await expectRevoked(conn, p);
    // the token is dead for a new socket too
    const again = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${h.base.replace('http', 'ws')}/api/ws/user`);
      sockets.push(ws);
      ws.once('open', () => ws.send(JSON.stringify({ action: 'auth', token })));
      ws.once('close', (code: number) => resolve(code));
    });
    expect(again).toBe(CLOSE_UNAUTHORIZED);
  });

  it('password reset closes every socket of the user', async () => {
    const { h, bus } = await start();
    await register(h, 'reset@example.com');
    const t1 = await login(h, 'reset@example.com');
    const t2 = await login(h, 'reset@example.com');
    const [c1, c2] = [await openUser(h.base, t1), await openUser(h.base, t2)];
    const p = pumpFrames(h, bus, await userId(h, t1));
    h.clock.advance(61_000);
    const code = await sendCode(h, 'reset@example.com', 'reset');
    const r = await call(h, '/user/resetPassword', { body: { email: 'reset@example.com', code, password: 'newpass12', confirmPassword: 'newpass12' } });
    expect([r.code, r.msg]).toEqual([200, 'Password reset successful']);
    await expectRevoked(c1, p);
    await expectRevoked(c2, p);
  });

  it("password change closes the other sessions' sockets and keeps the caller's", async () => {
    const { h, bus } = await start();
    await register(h, 'change@example.com');
    const mine = await login(h, 'change@example.com');
    const other = await login(h, 'change@example.com');
    const [keep, gone] = [await openUser(h.base, mine), await openUser(h.base, other)];
    const p = pumpFrames(h, bus, await userId(h, mine));
    const r = await call(h, '/user/modify-password', { token: mine, body: { oldPassword: 'secret12', password: 'newpass12', confirmPassword: 'newpass12' } });
    expect(r.code).toBe(200);
    await expectRevoked(gone, p);
    // the caller's socket keeps streaming frames published after the revocation
    const after = p.seq();
    while (!keep.frames.some((f) => (f.data?.seq ?? 0) > after + 2)) await new Promise((res) => setTimeout(res, 5));
    expect(keep.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('an expired session gets no frame: checked when the frame is sent, then closed with 4001', async () => {
    const { h, bus } = await start();
    await register(h, 'exp@example.com');
    const token = await login(h, 'exp@example.com');
    const conn = await openUser(h.base, token);
    const id = await userId(h, token);
    bus.publish(id, { type: 'balance', data: { seq: 1 } });
    while (conn.frames.length < 1) await new Promise((r) => setTimeout(r, 5));
    h.clock.advance(TOKEN_TTL_MS);
    bus.publish(id, { type: 'balance', data: { seq: 2 } });
    const closed = await within(conn.closed, 1000, 'close after expiry');
    expect(closed.code).toBe(CLOSE_UNAUTHORIZED);
    expect(conn.frames.map((f) => f.data?.seq)).toEqual([1]);
  });
});

describe('a revocation racing the auth lookup', () => {
  it('a session revoked while the socket is still authenticating never gets authed nor a frame', async () => {
    const bus = createUserEventBus();
    let lookups = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    h = await startServer({
      plugins: [
        async (app) => {
          await app.register(userSocketPlugin, {
            bus,
            clock: app.deps.clock,
            // The first lookup says "valid" (it ran before the revocation); the re-check waits on the gate.
            authenticate: async () => {
              lookups += 1;
              if (lookups > 1) await gate;
              return { userId: 5, sessionId: 9 };
            },
          });
        },
      ],
    });
    const ws = new WebSocket(`${h.base.replace('http', 'ws')}/api/ws/user`);
    sockets.push(ws);
    const frames: string[] = [];
    ws.on('message', (d: Buffer) => frames.push(d.toString()));
    const closed = new Promise<number>((r) => ws.once('close', (code: number) => r(code)));
    ws.once('open', () => ws.send(JSON.stringify({ action: 'auth', token: 'a'.repeat(64) })));
    while (lookups < 2) await new Promise((r) => setTimeout(r, 2));
    h.app.deps.revocations.publish({ kind: 'session', sessionId: 9 });
    bus.publish(5, { type: 'balance', data: {} });
    release();
    expect(await within(closed, 1000, 'close')).toBe(CLOSE_UNAUTHORIZED);
    expect(frames).toEqual([]);
  });
});

describe('a session ended without the hub (another process, a database edit)', () => {
  it('is found by the periodic re-check and the socket closes with 4001', async () => {
    const { h } = await start();
    await register(h, 'db@example.com');
    const token = await login(h, 'db@example.com');
    const conn = await openUser(h.base, token);
    // revoke in the database only: no publish on the hub
    await h.db.updateTable('sessions').set({ revoked_at: h.clock.now() }).where('revoked_at', 'is', null).execute();
    h.clock.advance(REVALIDATE_MS);
    const closed = await within(conn.closed, 3000, 'close after the re-check');
    expect(closed.code).toBe(CLOSE_UNAUTHORIZED);
    expect(conn.frames).toEqual([]);
  });
});
