import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import type { CopyApplication, CopyFollow, CopyOrder, CopyPosition, CopyTrader, CopyTraderDetail } from '../../src/protocol/copy.ts';
import { COPY_MSG } from '../../src/protocol/copy.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Balance } from '../../src/protocol/trading.ts';
import { call, login } from './harness.ts';
import { startCopy } from './copyHarness.ts';
import type { CopyHarness } from './copyHarness.ts';

let ch: CopyHarness;
beforeEach(async () => {
  ch = await startCopy();
});
afterEach(async () => {
  await ch.close();
});

const bal = async (token: string, wallet: string) => Number((await call<Balance[]>(ch.h, '/wallet/balances', { token })).data.find((b) => b.wallet === wallet && b.coin === 'USDT')?.available);
const positions = async (token: string) => (await call<CopyPosition[]>(ch.h, '/copy/positions', { token })).data;
const orders = async (token: string) => (await call<Page<CopyOrder>>(ch.h, '/copy/orders', { token })).data.list;

async function booksBalance(userIds: number[]): Promise<void> {
  for (const id of userIds) {
    for (const b of await balancesOf(ch.h.db, id)) {
      expect(await ledgerSum(ch.h.db, id, b.wallet, b.asset)).toBe(b.amount);
      expect(b.amount >= 0n).toBe(true);
    }
  }
}

describe('copy trading over HTTP', () => {
  it('follows a lead trader: the amount moves fund → copy through the ledger; unfollow returns it', async () => {
    const lead = await ch.leader('lead@example.com', 'Alpha Lead');
    const me = await ch.user('me@example.com');
    const list = await call<CopyTrader[]>(ch.h, '/copy/traders');
    expect(list.data.map((t) => t.nickname)).toContain('Alpha Lead');
    const f = await call<CopyFollow>(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '1000', mode: 'ratio', ratio: '0.5' } });
    expect(f.code).toBe(200);
    expect(f.msg).toBe(COPY_MSG.followed);
    expect(Number(f.data.cash)).toBe(1000);
    expect(await bal(me.token, 'fund')).toBe(9000);
    expect(await bal(me.token, 'copy')).toBe(1000);
    const again = await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '10' } });
    expect(again.msg).toBe(COPY_MSG.alreadyFollowing);
    const self = await call(ch.h, '/copy/follow', { token: lead.token, body: { traderId: lead.id, amount: '10' } });
    expect(self.msg).toBe(COPY_MSG.cannotFollowSelf);
    const tooMuch = await call(ch.h, '/copy/follow', { token: (await ch.user('poor@example.com')).token, body: { traderId: lead.id, amount: '20000' } });
    expect(tooMuch.msg).toBe(COPY_MSG.insufficientBalance);
    const detail = await call<CopyTraderDetail>(ch.h, `/copy/traders/${lead.id}`, { token: me.token });
    expect(detail.data.myFollowId).toBe(f.data.id);
    expect(detail.data.followers).toBe(1);
    expect(Number(detail.data.aum)).toBe(1000);
    const u = await call<CopyFollow>(ch.h, '/copy/unfollow', { token: me.token, body: { followId: f.data.id, closePositions: true } });
    expect(u.data.status).toBe('ended');
    expect(await bal(me.token, 'fund')).toBe(10000);
    expect(await bal(me.token, 'copy')).toBe(0);
    await booksBalance([me.id, lead.id]);
  });

  it('mirrors open, add, reduce and close proportionally at the same price, rounded down to the step, with fees', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    const f = (await call<CopyFollow>(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '5000', mode: 'ratio', ratio: '0.25' } })).data;
    // 0.25 × 0.105 = 0.02625 → 0.026 (step 0.001)
    expect((await ch.order(lead.token, { qty: 0.105 })).code).toBe(200);
    let [p] = await positions(me.token);
    expect(p?.qty).toBe(0.026);
    expect(p?.side).toBe('long');
    expect(p?.entryPrice).toBe(60_000);
    // notional 1 560, margin 156, fee 0.78
    expect(Number(p?.margin)).toBe(156);
    expect(await bal(me.token, 'copy')).toBe(4843.22);
    // add 0.2 → leader 0.305 → 0.07625 → 0.076
    ch.source.setPrice('BTCUSDT', 61_000);
    await ch.engine.idle();
    await ch.order(lead.token, { qty: 0.2 });
    [p] = await positions(me.token);
    expect(p?.qty).toBe(0.076);
    // reduce 0.105 → leader 0.2 → 0.05
    await ch.order(lead.token, { kind: 'marketClose', side: 'sell', qty: 0.105 });
    [p] = await positions(me.token);
    expect(p?.qty).toBe(0.05);
    // close
    await ch.order(lead.token, { kind: 'marketClose', side: 'sell', qty: 0.2 });
    expect(await positions(me.token)).toEqual([]);
    const os = await orders(me.token);
    expect(os.map((o) => o.action).reverse()).toEqual(['open', 'add', 'reduce', 'close']);
    expect(os.every((o) => o.status === 'filled')).toBe(true);
    expect(os.map((o) => o.price).reverse()).toEqual([60_000, 61_000, 61_000, 61_000]);
    const follows = (await call<CopyFollow[]>(ch.h, '/copy/follows', { token: me.token })).data;
    expect(follows[0]?.id).toBe(f.id);
    expect(Number(follows[0]?.realizedPnl)).toBeGreaterThan(0);
    // frames: the follower was told about each copied order
    const copyFrames = (ch.frames.get(me.id) ?? []).filter((x) => x.type === 'copy');
    expect(copyFrames.filter((x) => (x.data as { event: string }).event === 'order')).toHaveLength(4);
    await booksBalance([me.id, lead.id]);
  });

  it('skips an order below the minimum quantity and records why', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '500', mode: 'ratio', ratio: '0.1' } });
    await ch.order(lead.token, { qty: 0.005 }); // 0.0005 → 0 < 0.001
    expect(await positions(me.token)).toEqual([]);
    const [o] = await orders(me.token);
    expect(o?.status).toBe('skipped');
    expect(o?.reason).toBe('belowMinQty');
  });

  it('a close or a reduction of a position the trader opened before the follow records nothing for the copy (issue 26, Minor 17)', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    await ch.order(lead.token, { side: 'sell', qty: 0.3 }); // a short opened before the follow
    await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '5000', mode: 'fixed', fixedAmount: '100' } });
    await ch.order(lead.token, { kind: 'marketClose', side: 'buy', qty: 0.1 }); // a reduction
    await ch.order(lead.token, { kind: 'marketClose', side: 'buy', qty: 0.2 }); // the close
    expect(await positions(me.token)).toEqual([]);
    expect(await orders(me.token)).toEqual([]);
    expect((ch.frames.get(me.id) ?? []).filter((x) => x.type === 'copy' && (x.data as { event: string }).event === 'skipped')).toEqual([]);
    // the trader's next opening is copied as an open
    await ch.order(lead.token, { qty: 0.1 });
    expect((await orders(me.token)).map((o) => `${o.action} ${o.side} ${o.status}`)).toEqual(['open buy filled']);
  });

  it('a follower short of margin skips that order, is told why, and the leader is unaffected', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '100', mode: 'ratio', ratio: '1' } });
    const r = await ch.order(lead.token, { qty: 0.1 }); // follower needs 600 margin
    expect(r.code).toBe(200);
    expect(r.data.status).toBe('filled');
    expect(await positions(me.token)).toEqual([]);
    const [o] = await orders(me.token);
    expect(o?.status).toBe('skipped');
    expect(o?.reason).toBe('insufficientMargin');
    const frame = (ch.frames.get(me.id) ?? []).find((x) => x.type === 'copy' && (x.data as { event: string }).event === 'skipped');
    expect((frame?.data as { order: CopyOrder }).order.reason).toBe('insufficientMargin');
    expect(await bal(me.token, 'copy')).toBe(100);
  });

  it('fixed amount and max per order: each opening copies a fixed margin, capped by the notional limit', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '2000', mode: 'fixed', fixedAmount: '100', maxPerOrder: '600' } });
    // 100 × 10 / 60 000 = 0.01666 → 0.016 ; cap 600 / 60 000 = 0.01
    await ch.order(lead.token, { qty: 0.3 });
    const [p] = await positions(me.token);
    expect(p?.qty).toBe(0.01);
    await ch.order(lead.token, { kind: 'marketClose', side: 'sell', qty: 0.15 });
    expect((await positions(me.token))[0]?.qty).toBe(0.005);
  });

  it('a ratio of 0 (or outside (0, 10]) and a fixed amount below one minimum order are refused and move nothing (issue 29)', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    // The trader's market: BTCUSDT at 60 000, leverage 20 at most → one minimum order (0.001) is 3 USDT of margin.
    await ch.order(lead.token, { qty: 0.1, leverage: 10 });
    await ch.order(lead.token, { qty: 0.1, leverage: 20 });
    const follow = (body: Record<string, unknown>) => call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '1000', ...body } });
    for (const ratio of ['0', 0, '0.0', '-1', '0.001', '10.01', '1e-3', '0x1', true, [1]]) {
      const r = await follow({ mode: 'ratio', ratio });
      expect([r.code, r.msg], JSON.stringify(ratio)).toEqual([400, COPY_MSG.ratioRange]);
    }
    for (const fixedAmount of ['2.999999', '0.000001', 1]) {
      const r = await follow({ mode: 'fixed', fixedAmount });
      expect([r.code, r.msg], JSON.stringify(fixedAmount)).toEqual([400, `${COPY_MSG.fixedTooSmall}3 USDT`]);
    }
    for (const fixedAmount of ['1e1', '0x10', '-5', [5]]) expect((await follow({ mode: 'fixed', fixedAmount })).msg).toBe(COPY_MSG.fixedRequired);
    expect(await bal(me.token, 'fund')).toBe(10000);
    expect(await bal(me.token, 'copy')).toBe(0);
    expect((await call<CopyFollow[]>(ch.h, '/copy/follows', { token: me.token })).data ?? []).toEqual([]);

    // The smallest accepted amount copies the trader's next 20x order: 3 × 20 / 60 000 = 0.001.
    const ok = await follow({ mode: 'fixed', fixedAmount: '3' });
    expect(ok.code, ok.msg).toBe(200);
    await ch.order(lead.token, { qty: 0.1, leverage: 20 });
    expect((await positions(me.token))[0]?.qty).toBe(0.001);
    await booksBalance([me.id, lead.id]);
  });

  it('unfollow keeping positions: cash returns now, the kept position is closed later and its funds return too', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    const f = (await call<CopyFollow>(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '1000', ratio: '1' } })).data;
    await ch.order(lead.token, { qty: 0.01 });
    const u = await call<CopyFollow>(ch.h, '/copy/unfollow', { token: me.token, body: { followId: f.id, closePositions: false } });
    expect(u.data.status).toBe('ended');
    const [kept] = await positions(me.token);
    expect(kept?.kept).toBe(true);
    expect(kept?.qty).toBe(0.01);
    // the leader closes: the ended copy is no longer mirrored
    await ch.order(lead.token, { kind: 'marketClose', side: 'sell', qty: 0.01 });
    expect((await positions(me.token))[0]?.qty).toBe(0.01);
    const c = await call<CopyPosition>(ch.h, '/copy/position/close', { token: me.token, body: { positionId: kept?.id } });
    expect(c.data.status).toBe('closed');
    expect(await bal(me.token, 'copy')).toBe(0);
    // 1000 − open fee 0.3 − close fee 0.3
    expect(await bal(me.token, 'fund')).toBe(9999.4);
    await booksBalance([me.id]);
  });

  it('stop copying at a loss: the copy ends and closes its positions once the loss reaches the stop', async () => {
    const lead = await ch.leader('lead@example.com');
    const me = await ch.user('me@example.com');
    await call(ch.h, '/copy/follow', { token: me.token, body: { traderId: lead.id, amount: '1000', ratio: '1', stopLoss: '50' } });
    await ch.order(lead.token, { qty: 0.01 });
    ch.source.setPrice('BTCUSDT', 54_000);
    await ch.engine.idle();
    const { runCopyJobs } = await import('../../server/copy/routes.ts');
    await runCopyJobs({ db: ch.h.db, clock: ch.h.clock, bus: ch.bus, source: ch.source }, ch.h.clock.now());
    expect(await positions(me.token)).toEqual([]);
    const [f] = (await call<CopyFollow[]>(ch.h, '/copy/follows', { token: me.token })).data;
    expect(f).toBeUndefined();
    expect(Number(await bal(me.token, 'fund'))).toBeLessThan(9950);
    await booksBalance([me.id]);
  });

  it('trader application: review state, approval lists the trader, rejection allows a new application', async () => {
    const u = await ch.user('apply@example.com');
    expect((await call(ch.h, '/copy/apply', { token: u.token })).data).toBeNull();
    const short = await call(ch.h, '/copy/apply', { token: u.token, body: { nickname: 'A', experience: 'x' } });
    expect(short.code).toBe(400);
    const a = await call<CopyApplication>(ch.h, '/copy/apply', { token: u.token, body: { nickname: 'Gamma', experience: 'I trade BTC swings with strict stops.' } });
    expect(a.data.status).toBe('review');
    const dup = await call(ch.h, '/copy/apply', { token: u.token, body: { nickname: 'Gamma', experience: 'I trade BTC swings with strict stops.' } });
    expect(dup.msg).toBe(COPY_MSG.alreadyApplied);
    const rej = await call<CopyApplication>(ch.h, '/dev/copy/review', { body: { email: 'apply@example.com', decision: 'reject', reason: 'Too few trades' } });
    expect(rej.data.status).toBe('rejected');
    expect((await call<CopyTrader[]>(ch.h, '/copy/traders')).data).toEqual([]);
    await call(ch.h, '/copy/apply', { token: u.token, body: { nickname: 'Gamma', experience: 'I trade BTC swings with strict stops.' } });
    const ok = await call<CopyApplication>(ch.h, '/dev/copy/review', { body: { email: 'apply@example.com', decision: 'approve' } });
    expect(ok.data.status).toBe('approved');
    expect((await call<CopyApplication>(ch.h, '/copy/apply', { token: u.token })).data.status).toBe('approved');
    expect((await call<CopyTrader[]>(ch.h, '/copy/traders')).data.map((t) => t.nickname)).toEqual(['Gamma']);
    const frame = (ch.frames.get(u.id) ?? []).filter((x) => x.type === 'copy').at(-1);
    expect((frame?.data as { application: CopyApplication }).application.status).toBe('approved');
  });

  it("trader figures come from the trader's fills: PnL, return, win rate, series; sorting and search", async () => {
    const a = await ch.leader('a@example.com', 'Winner');
    const b = await ch.leader('b@example.com', 'Loser');
    await ch.order(a.token, { qty: 0.1 });
    await ch.order(b.token, { qty: 0.1 });
    ch.source.setPrice('BTCUSDT', 61_000);
    await ch.engine.idle();
    await ch.order(a.token, { kind: 'marketClose', side: 'sell', qty: 0.1 });
    ch.source.setPrice('BTCUSDT', 59_000);
    await ch.engine.idle();
    await ch.order(b.token, { kind: 'marketClose', side: 'sell', qty: 0.1 });
    const list = (await call<CopyTrader[]>(ch.h, '/copy/traders?sort=pnl30')).data;
    expect(list.map((t) => t.nickname)).toEqual(['Winner', 'Loser']);
    const w = list[0];
    // +100 − fees 3 (open) − 3.05 (close)
    expect(Number(w?.pnl30)).toBe(93.95);
    expect(w?.winRate).toBe('100.00');
    expect(list[1]?.winRate).toBe('0.00');
    expect(w?.series.map(Number)).toEqual([0, -3, 93.95]);
    expect((await call<CopyTrader[]>(ch.h, '/copy/traders?q=los')).data.map((t) => t.nickname)).toEqual(['Loser']);
    const hist = await call<Page<unknown>>(ch.h, `/copy/traders/${a.id}/history`);
    expect(hist.data.total).toBe(2);
    expect((await call(ch.h, '/copy/traders/123')).code).toBe(404);
  });

  it('each window counts its own fills and the history length is told (issue 26, Minor 19)', async () => {
    const DAY = 86_400_000;
    const a = await ch.leader('a@example.com', 'Steady');
    const one = await ch.leader('b@example.com', 'Newcomer');
    const figures = async (id: number) => (await call<CopyTrader>(ch.h, `/copy/traders/${id}`)).data;
    expect((await figures(a.id)).historyDays).toBe(0);
    // a round trip 40 days ago, one 10 days ago, one today: each -6.00 or so in fees, +100 each
    for (const ago of [40, 10, 0]) {
      const token = await login(ch.h, 'a@example.com'); // a session does not last 40 days
      ch.source.setPrice('BTCUSDT', 60_000);
      await ch.engine.idle();
      expect((await ch.order(token, { qty: 0.1 })).code).toBe(200);
      ch.source.setPrice('BTCUSDT', 61_000);
      await ch.engine.idle();
      expect((await ch.order(token, { kind: 'marketClose', side: 'sell', qty: 0.1 })).code).toBe(200);
      if (ago > 0) ch.h.clock.advance((ago - (ago === 40 ? 10 : 0)) * DAY);
    }
    expect((await ch.order(await login(ch.h, 'b@example.com'), { qty: 0.1 })).code).toBe(200);
    const f = await figures(a.id);
    // 100 − 3 − 3.05 per round trip
    expect([f.pnl7, f.pnl30, f.pnl90].map(Number)).toEqual([93.95, 187.9, 281.85]);
    expect(f.historyDays).toBe(41); // 40 days and the minutes the logins moved the clock, rounded up
    // the last 30 days: two round trips, five points from 0, each with its fill's time
    expect(f.series.map(Number)).toEqual([0, -3, 93.95, 90.95, 187.9]);
    expect(f.seriesTimes).toHaveLength(5);
    expect(f.seriesTimes[0]).toBe(f.seriesTimes[1]);
    expect((f.seriesTimes[4] ?? 0) - (f.seriesTimes[0] ?? 0)).toBeGreaterThanOrEqual(10 * DAY);
    const n = await figures(one.id);
    expect(n.historyDays).toBe(1);
    expect([n.pnl7, n.pnl30, n.pnl90]).toEqual(['-3.050000', '-3.050000', '-3.050000']); // opened at 61 000: fee 3.05, the same in every window
  });
});
