import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runFeatureJobs } from '../../server/features.ts';
import { tradingEngineOf } from '../../server/trading/wiring.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { NOTIFY_MSG } from '../../src/protocol/help.ts';
import { NOTIFICATION_MSG } from '../../src/protocol/notifications.ts';
import type { Notification, UnreadCount } from '../../src/protocol/notifications.ts';
import { MONEY_PATHS } from '../../src/protocol/wallet.ts';
import type { Withdrawal } from '../../src/protocol/wallet.ts';
import { call, sendCode } from './harness.ts';
import { api, TRON, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';

/**
 * The notification centre (issue 26, Major 8) over a real server: real HTTP, the real user socket
 * (/api/ws/user) and a real SMTP server (smtp-server on 127.0.0.1) behind the app's own mailer.
 * Events (withdrawal submitted / approved / rejected, deposit credited, password change, order
 * filled, liquidation warning and liquidation) become notices in the notification language, pushed
 * as `notification` frames with the unread count, mailed, listed, counted and marked read; a module
 * switched off records nothing.
 */


interface Mail {
  to: string;
  raw: string;
}
const mails: Mail[] = [];
let smtp: SMTPServer;
let m: MoneyHarness;

type Frame = { type: string; data?: { notification: Notification | null; unread: number } } & Record<string, unknown>;

interface Sock {
  ws: WebSocket;
  frames: Frame[];
  next(pred: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
}

/** A user socket authenticated with `token` (the app's protocol: auth first, then pushes). */
async function openUserSocket(token: string): Promise<Sock> {
  const ws = new WebSocket(`${m.h.base.replace('http', 'ws')}/api/ws/user`);
  const frames: Frame[] = [];
  const wake = new Set<() => void>();
  ws.on('message', (d: Buffer) => {
    frames.push(JSON.parse(d.toString()) as Frame);
    for (const w of [...wake]) w();
  });
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
  });
  const next = (pred: (f: Frame) => boolean, timeoutMs = 4000): Promise<Frame> =>
    new Promise((res, rej) => {
      const check = (): boolean => {
        const i = frames.findIndex(pred);
        if (i < 0) return false;
        const [f] = frames.splice(i, 1);
        wake.delete(check);
        clearTimeout(timer);
        res(f as Frame);
        return true;
      };
      const timer = setTimeout(() => {
        wake.delete(check);
        rej(new Error(`timed out waiting for a frame; have ${JSON.stringify(frames.map((f) => f.type))}`));
      }, timeoutMs);
      if (!check()) wake.add(check);
    });
  ws.send(JSON.stringify({ action: 'auth', token }));
  await next((f) => f.type === 'authed');
  return { ws, frames, next };
}

const notice = (kind: string) => (f: Frame) => f.type === 'notification' && f.data?.notification?.kind === kind;

async function mailTo(to: string, subject: string, timeoutMs = 4000): Promise<Mail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = mails.find((x) => x.to === to && x.raw.includes(subject));
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no mail to ${to} with ${subject}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    const s = smtp.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
  });
  m = await startMoney({
    config: { mail: { from: 'RiskFree <no-reply@localhost>', smtp: { host: '127.0.0.1', port, secure: false, rejectUnauthorized: false } } },
  });
});
afterAll(async () => {
  await m.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function securityCode(email: string, token: string): Promise<string> {
  m.h.clock.advance(61_000);
  return sendCode(m.h, email, 'security', token);
}

describe('notifications over HTTP and the user socket', () => {
  it('withdrawal submitted / approved / rejected: pushed with the unread count, mailed, listed, marked read', async () => {
    const email = 'n-wd@example.com';
    const u = await m.user(email);
    const s = await openUserSocket(u.token);
    const withdraw = async (amount: string) =>
      (await call<Withdrawal>(m.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount, code: await securityCode(email, u.token) } })).data;
    const a = await withdraw('20');
    const submitted = (await s.next(notice('withdrawalSubmitted'))).data!;
    expect(submitted.unread).toBe(1);
    expect(submitted.notification).toMatchObject({ module: 'sysNotify', lang: 'en', title: 'Withdrawal submitted', readAt: null, params: { id: String(a.id), amount: '20.000000', coin: 'USDT' } });
    expect(submitted.notification?.body).toBe(`Your withdrawal of 20.000000 USDT (TRC20) to ${TRON.slice(0, 6)}…${TRON.slice(-6)} was submitted and awaits review.`);
    const mail = await mailTo(email, 'Withdrawal submitted');
    expect(mail.raw).toContain('awaits review');

    expect((await call(m.h, api(MONEY_PATHS.devReview), { body: { id: a.id, decision: 'approve' } })).code).toBe(200);
    expect((await s.next(notice('withdrawalApproved'))).data?.unread).toBe(2);
    const b = await withdraw('30');
    await s.next(notice('withdrawalSubmitted'));
    expect((await call(m.h, api(MONEY_PATHS.devReview), { body: { id: b.id, decision: 'reject', reason: 'test' } })).code).toBe(200);
    const rejected = (await s.next(notice('withdrawalRejected'))).data!;
    expect(rejected.unread).toBe(4);
    expect(rejected.notification?.body).toContain('31.000000 USDT are back in your fund account');

    // the same event published again records nothing new (dedupe), and nothing is pushed
    m.deps.bus?.publish(u.id, { type: 'withdrawal', data: { ...b, status: 'rejected' } });
    const unread = await call<UnreadCount>(m.h, '/notify/unread', { token: u.token });
    expect(unread.data).toEqual({ unread: 4 });

    const page1 = await call<Page<Notification>>(m.h, '/notify/list?page=1&pageSize=3', { token: u.token });
    expect(page1.code).toBe(200);
    expect(page1.data.total).toBe(4);
    expect(page1.data.list.map((n) => n.kind)).toEqual(['withdrawalRejected', 'withdrawalSubmitted', 'withdrawalApproved']);
    const page2 = await call<Page<Notification>>(m.h, '/notify/list?page=2&pageSize=3', { token: u.token });
    expect(page2.data.list.map((n) => n.kind)).toEqual(['withdrawalSubmitted']);

    // mark one read: answered and pushed with the new count (other tabs follow)
    const first = page1.data.list[0]!;
    const read = await call<UnreadCount>(m.h, '/notify/read', { token: u.token, body: { ids: [first.id] } });
    expect([read.code, read.msg, read.data]).toEqual([200, NOTIFICATION_MSG.marked, { unread: 3 }]);
    expect((await s.next((f) => f.type === 'notification' && f.data?.notification === null)).data?.unread).toBe(3);
    const unreadOnly = await call<Page<Notification>>(m.h, '/notify/list?unread=1', { token: u.token });
    expect(unreadOnly.data.list.map((n) => n.id)).not.toContain(first.id);
    expect(unreadOnly.data.total).toBe(3);

    // another user's ids are ignored; bad bodies are refused with the envelope
    const other = await m.user('n-other@example.com');
    const foreign = await call<UnreadCount>(m.h, '/notify/read', { token: other.token, body: { ids: page1.data.list.map((n) => n.id) } });
    expect(foreign.data).toEqual({ unread: 0 });
    expect((await call<UnreadCount>(m.h, '/notify/unread', { token: u.token })).data.unread).toBe(3);
    for (const body of [{}, { ids: [] }, { ids: ['x'] }]) {
      const bad = await call(m.h, '/notify/read', { token: u.token, body });
      expect([bad.code, bad.msg], JSON.stringify(body)).toEqual([400, NOTIFICATION_MSG.badIds]);
    }
    expect((await call(m.h, '/notify/read', { token: u.token, body: { ids: [1], more: true } })).code).toBe(400);
    expect((await call(m.h, '/notify/list?pageSize=1000', { token: u.token })).code).toBe(400);
    expect((await call(m.h, '/notify/list')).code).toBe(401);

    const all = await call<UnreadCount>(m.h, '/notify/read-all', { token: u.token, body: {} });
    expect(all.data).toEqual({ unread: 0 });
    const after = await call<Page<Notification>>(m.h, '/notify/list', { token: u.token });
    expect(after.data.list.map((n) => n.readAt !== null)).toEqual([true, true, true, true]);
    s.ws.close();
  });

  it('respects the module switches and writes in the notification language (deposit credited)', async () => {
    const email = 'n-dep@example.com';
    const u = await m.user(email);
    const s = await openUserSocket(u.token);
    const off = await call(m.h, '/notify/prefs', { token: u.token, body: { sysNotify: false } });
    expect([off.code, off.msg]).toEqual([200, NOTIFY_MSG.saved]);
    const deposit = async (amount: string) => {
      await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'USDT', network: 'TRC20', amount } });
      for (let i = 0; i < 30; i += 1) {
        m.h.clock.advance(60_000);
        await m.jobs();
      }
    };
    await deposit('100');
    await s.next((f) => f.type === 'deposit' && (f.data as unknown as { status: string }).status === 'credited');
    expect((await call<UnreadCount>(m.h, '/notify/unread', { token: u.token })).data.unread).toBe(0);

    await call(m.h, '/notify/prefs', { token: u.token, body: { sysNotify: true, lang: 'jp' } });
    await deposit('5');
    const jp = (await s.next(notice('depositCredited'))).data!.notification!;
    expect(jp).toMatchObject({ lang: 'jp', title: '入金が反映されました', body: '5.000000 USDT（TRC20）が資金口座に入金されました。' });
    const mail = await mailTo(email, '=?UTF-8?');
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?/);
    s.ws.close();
  });

  it('a password change notifies (and mails) the account', async () => {
    const email = 'n-pw@example.com';
    const u = await m.user(email);
    await call(m.h, '/notify/prefs', { token: u.token, body: { lang: 'ko' } });
    const r = await call(m.h, '/user/modify-password', { token: u.token, body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' } });
    expect(r.code).toBe(200);
    // recorded inside the request, before it answers (the change ends the account's other sockets)
    const list = await call<Page<Notification>>(m.h, '/notify/list', { token: u.token });
    const n = list.data.list.find((x) => x.kind === 'passwordChanged');
    expect(n).toMatchObject({ lang: 'ko', module: 'sysNotify', title: '로그인 비밀번호가 변경되었습니다', readAt: null });
    expect(n?.body).toContain('24시간');
    await mailTo(email, 'Content-Type');
  });

  it('order filled, liquidation warning and liquidation (trade module); none with tradeNotify off', async () => {
    const email = 'n-trade@example.com';
    const u = await m.user(email);
    const s = await openUserSocket(u.token);
    const engine = tradingEngineOf(m.h.db)!;
    m.source.setPrice('BTCUSDT', 60_000);
    await engine.idle();
    const place = await call(m.h, '/trade/order', { token: u.token, body: { clientOrderId: 'n1', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 } });
    expect(place.code).toBe(200);
    const filled = (await s.next(notice('orderFilled'))).data!.notification!;
    expect(filled).toMatchObject({ module: 'tradeNotify', title: 'Order filled', params: { symbol: 'BTCUSDT', side: 'buy' } });
    expect(filled.body).toMatch(/^Your BTCUSDT buy order of 0\.1\d* was filled at an average price of [\d.]+\.$/);

    // liquidation price 54 216.8 (tests/server/tradeRisk.test.ts): close to it, the job warns once
    m.source.setPrice('BTCUSDT', 60_000);
    await engine.idle();
    await runFeatureJobs(m.deps, m.h.clock.now(), ['notify']);
    expect(s.frames.some(notice('liquidationWarning'))).toBe(false);
    m.source.setPrice('BTCUSDT', 54_250);
    await engine.idle();
    await runFeatureJobs(m.deps, m.h.clock.now(), ['notify']);
    const warn = (await s.next(notice('liquidationWarning'))).data!.notification!;
    expect(warn.params).toMatchObject({ symbol: 'BTCUSDT', side: 'long', mark: '54250.0' });
    expect(Number(warn.params.risk)).toBeGreaterThanOrEqual(80);
    await runFeatureJobs(m.deps, m.h.clock.now(), ['notify']);
    m.source.setPrice('BTCUSDT', 54_200);
    await engine.idle();
    const liq = (await s.next(notice('liquidation'))).data!.notification!;
    expect(liq).toMatchObject({ title: 'Position liquidated', params: { symbol: 'BTCUSDT', side: 'long' } });
    expect(s.frames.filter(notice('orderFilled'))).toHaveLength(0); // the liquidation's close order is not an "order filled"
    const kinds = (await call<Page<Notification>>(m.h, '/notify/list', { token: u.token })).data.list.map((n) => n.kind);
    expect(kinds.filter((k) => k === 'liquidationWarning')).toHaveLength(1);

    // with the trade module off, a fill records nothing
    await call(m.h, '/notify/prefs', { token: u.token, body: { tradeNotify: false } });
    m.source.setPrice('BTCUSDT', 60_000);
    await engine.idle();
    const before = (await call<UnreadCount>(m.h, '/notify/unread', { token: u.token })).data.unread;
    expect((await call(m.h, '/trade/order', { token: u.token, body: { clientOrderId: 'n2', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 } })).code).toBe(200);
    await engine.idle();
    await new Promise((r) => setTimeout(r, 200));
    expect((await call<UnreadCount>(m.h, '/notify/unread', { token: u.token })).data.unread).toBe(before);
    s.ws.close();
  });
});
