import fc from 'fast-check';
import { expect } from 'vitest';
import { replayLog } from '../../src/core/replay/driver.ts';
import type { ParsedLog } from '../../src/core/replay/parse.ts';
import { placeOrderBodyOf } from '../../src/core/tradingApi.ts';
import type { LogRecord } from '../../src/ports/eventLog.ts';
import { stableStringify } from '../../src/ports/stateHash.ts';
import { KYC_MSG } from '../../src/protocol/kyc.ts';
import { CONVERT_MSG } from '../../src/protocol/convert.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import { holds } from '../../replay/logProperty.ts';

/**
 * Generated logs of screen flows (issue 27, point 4) for tests/property/screenFlows.prop.test.ts:
 * what a recording core would have written while a logged-in user went through form flows, one
 * screen after another:
 * - the order ticket on /mFutures/BTCUSDT: a market order the form refuses (below the minimum),
 *   or one the server fills, accepts (then a user-socket frame fills or cancels it), refuses with
 *   one of its messages, or never answers (network error);
 * - the KYC form: five fields (the document number redacted, as the recorder writes it) and two
 *   photos, one of which may be bad (not an image, too large, empty) so the form refuses; else the
 *   submit, accepted (review, then maybe a reviewer's rejection with a reason over the socket) or
 *   refused by the server;
 * - the convert screen: a quote, then a wait; past the 8 s window it expires and the user asks for
 *   a new one; then the confirm, filled or refused by the server (the quote expired there).
 * Each flow ends with an `expect.screen` record: the state its flow must be in there
 * (`{key, value, context?}`, a subset of `core.state().screens[key]`). The replay ignores that
 * kind; {@link checkScreenFlowLog} reads it, so a shrunk fixture carries what it expected.
 */

const START = 1_790_000_000_000;
const BTC = { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', name: 'Bitcoin', category: 'crypto', kinds: ['perp', 'std'], tickSize: 0.1, qtyStep: 0.001, pricePrecision: 1, qtyPrecision: 3, minOrderQuantity: 0.001, maxOrderQuantity: 500, openingFeeRatio: 0.0005, closingFeeRatio: 0.0005, makerFeeRatio: 0.0002, minLever: 1, maxLever: 125, mMarginRatio: 0.004, overnightFeeRatio: 0.0003, fundingRateRatio: 0.0001, hot: true };
const USER = { id: 10000009, nickname: 'Gen', avatar: '', cover_email: 'ge***@example.com', kycStatus: 'unverified', googleBound: false, inviteCode: 'GENERATE' };

const ORDER_REFUSALS = [TRADE_MSG.insufficientBalance, 'Price must be a multiple of 0.1', 'Trading is paused for this symbol'];
const orderFlow = fc.record({
  k: fc.constant('order' as const),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  steps: fc.integer({ min: 1, max: 400 }),
  formRefuses: fc.boolean(),
  answer: fc.constantFrom('filled' as const, 'pending' as const, 'refused' as const, 'networkError' as const),
  refusal: fc.constantFrom(...ORDER_REFUSALS),
  /** What the socket says of a pending order afterwards. */
  frame: fc.constantFrom('filled' as const, 'canceled' as const, 'none' as const),
  think: fc.integer({ min: 10, max: 3000 }),
});
const PHOTOS = {
  ok: { name: 'info.png', type: 'image/png', size: 470 },
  notImage: { name: 'info.gif', type: 'image/gif', size: 470 },
  tooLarge: { name: 'info.png', type: 'image/png', size: 60 * 1024 * 1024 },
  empty: { name: 'info.png', type: 'image/png', size: 0 },
} as const;
const kycFlow = fc.record({
  k: fc.constant('kyc' as const),
  photo: fc.constantFrom('ok' as const, 'ok' as const, 'notImage' as const, 'tooLarge' as const, 'empty' as const),
  answer: fc.constantFrom('review' as const, 'refused' as const),
  verdict: fc.constantFrom('rejected' as const, 'none' as const),
  reason: fc.constantFrom('The information page photo is blurry', 'The name does not match the document'),
  think: fc.integer({ min: 10, max: 3000 }),
});
const convertFlow = fc.record({
  k: fc.constant('convert' as const),
  amount: fc.integer({ min: 1, max: 5000 }),
  /** ms between the quote's answer and the confirm: inside the 8 s window or well past it. */
  wait: fc.oneof(fc.integer({ min: 200, max: 7000 }), fc.integer({ min: 9000, max: 30000 })),
  refused: fc.boolean(),
});
export const screenFlowArb = fc.array(fc.oneof(orderFlow, kycFlow, convertFlow), { minLength: 1, maxLength: 5 });
export type ScreenFlowSpec = typeof screenFlowArb extends fc.Arbitrary<infer T> ? T : never;

/** What `expect.screen` records carry: the key of the flow and a subset of its `{value, context}`. */
interface ScreenExpectation {
  key: string;
  value: unknown;
  context?: Record<string, unknown>;
}

/** The log text (rft-log JSON Lines) a recording core would have written for these flows. */
export function buildScreenFlowLog(spec: ScreenFlowSpec): string {
  const recs: Omit<LogRecord, 'seq'>[] = [];
  let t = 0;
  let id = 0;
  const push = (kind: string, payload: Record<string, unknown>) => void recs.push({ t, kind, ...payload });
  const request = (method: string, path: string, extra: Record<string, unknown> = {}) => {
    id += 1;
    push('http.request', { id, method, path, ...extra });
    return id;
  };
  const answer = (rid: number, code: number, msg: string, data: unknown, after = 40) => {
    t += after;
    push('http.response', { id: rid, envelope: { code, msg, data } });
  };
  const networkError = (rid: number, path: string) => {
    t += 40;
    push('http.response', { id: rid, networkError: `[POST] "/api${path}": <no response> fetch failed` });
  };
  const intent = (name: string, event: Record<string, unknown>, after = 150) => {
    t += after;
    push('ui.intent', { actor: `screen:${name}`, event });
  };
  const userFrame = (data: unknown, after = 60) => {
    t += after;
    push('ws.in', { conn: 2, data: JSON.stringify(data) });
  };
  const expectScreen = (e: ScreenExpectation) => push('expect.screen', { check: e });

  // Logged in from a stored token: the user info, the market and user sockets.
  push('storage.init', { key: 'token', value: '<redacted:token#1>' });
  push('ws.open', { conn: 1, url: '/api/ws/market' });
  const info = request('GET', '/user/info');
  push('ws.open', { conn: 2, url: '/api/ws/user' });
  answer(info, 200, 'success', USER, 5);
  t += 5;
  push('ws.opened', { conn: 1 });
  push('ws.opened', { conn: 2 });
  userFrame({ type: 'authed', userId: USER.id });

  let orders = 0;
  let quotes = 0;
  spec.forEach((flow, i) => {
    t += 500;
    switch (flow.k) {
      case 'order': {
        push('ui.route', { path: '/mFutures/BTCUSDT' });
        answer(request('GET', '/market/symbols'), 200, 'success', [BTC], 30);
        const qty = flow.formRefuses ? '0.0001' : String(Number((flow.steps / 1000).toFixed(3)));
        intent('order', { type: 'order.edit', patch: { type: 'market', side: flow.side, qty } }, flow.think);
        intent('order', { type: 'order.submit', market: { available: '10000000', lastPrice: 50000 } });
        const key = 'order:perp:BTCUSDT';
        if (flow.formRefuses) {
          expectScreen({ key, value: 'editing', context: { error: { key: 'minOrderQuantity', value: '0.001' } } });
          break;
        }
        orders += 1;
        const clientOrderId = `gen-${orders}`;
        push('random', { value: clientOrderId });
        const body = placeOrderBodyOf({ clientOrderId, symbol: 'BTCUSDT', side: flow.side, type: 'market', qty, leverage: 10 }, 'perp');
        const rid = request('POST', '/trade/order', { body });
        const order = { id: `O${i}`, clientOrderId, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: flow.side, price: 0, qty: Number(qty), leverage: 10, executedQty: 0, avgPrice: 0, fee: '0', realizedPnl: '0', margin: '0', positionId: null, tp: null, sl: null, createdAt: START + t, updatedAt: START + t };
        if (flow.answer === 'networkError') {
          networkError(rid, '/trade/order');
          expectScreen({ key, value: 'failed' });
        } else if (flow.answer === 'refused') {
          answer(rid, 400, flow.refusal, null);
          expectScreen({ key, value: 'rejected', context: { failure: { msg: flow.refusal } } });
        } else if (flow.answer === 'filled') {
          answer(rid, 200, 'success', { ...order, status: 'filled' });
          expectScreen({ key, value: 'filled' });
        } else {
          answer(rid, 200, 'success', { ...order, status: 'pending' });
          expectScreen({ key, value: 'pending' });
          if (flow.frame !== 'none') {
            userFrame({ type: 'order', data: { ...order, status: flow.frame } });
            expectScreen({ key, value: flow.frame });
          }
        }
        break;
      }
      case 'kyc': {
        push('ui.route', { path: '/my/settings/kyc' });
        answer(request('GET', '/kyc/status'), 200, 'success', { status: 'unverified', latest: null }, 80);
        const fields: [string, string][] = [['country', 'DE'], ['docType', 'passport'], ['firstName', 'Ada'], ['lastName', 'Lovelace'], ['docNumber', '<redacted:secret#1>']];
        fields.forEach(([field, value], j) => intent('kyc', { type: 'kyc.field', field, value }, j === 0 ? flow.think : 150));
        const cover = PHOTOS.ok;
        const photo = PHOTOS[flow.photo];
        intent('kyc', { type: 'kyc.file', slot: 'cover', file: { ...cover, name: 'cover.png' } });
        intent('kyc', { type: 'kyc.file', slot: 'info', file: photo });
        intent('kyc', { type: 'kyc.submit' });
        if (flow.photo !== 'ok') {
          // The form refuses the photo (kept out of the form) and so the submit: no request.
          expectScreen({ key: 'kyc', value: 'unverified', context: { form: { info: null }, submits: 0 } });
          break;
        }
        const part = (f: { name: string; type: string; size: number }) => ({ file: f.name, size: f.size, type: f.type });
        const formData = [...fields, ['cover', part({ ...cover, name: 'cover.png' })], ['info', part(photo)]];
        const rid = request('POST', '/kyc/submit', { body: { formData } });
        const latest = { id: i + 1, status: 'review', country: 'DE', docType: 'passport', firstName: 'Ada', lastName: 'Lovelace', docNumberMasked: '*****0983', reason: null, submittedAt: START + t, reviewedAt: null };
        if (flow.answer === 'refused') {
          answer(rid, 400, KYC_MSG.docNumberInvalid, null);
          expectScreen({ key: 'kyc', value: 'unverified', context: { submitError: KYC_MSG.docNumberInvalid, submits: 1 } });
          break;
        }
        answer(rid, 200, 'success', { status: 'review', latest });
        expectScreen({ key: 'kyc', value: 'review', context: { submits: 1 } });
        if (flow.verdict === 'rejected') {
          userFrame({ type: 'kyc', data: { status: 'unverified', latest: { ...latest, status: 'rejected', reason: flow.reason, reviewedAt: START + t } } }, 1500);
          // Back to the form, prefilled, the photos to choose again, the reviewer's reason with it.
          expectScreen({ key: 'kyc', value: 'rejected', context: { status: { latest: { reason: flow.reason } }, form: { firstName: 'Ada', cover: null, info: null } } });
        }
        break;
      }
      case 'convert': {
        push('ui.route', { path: '/convert' });
        const amount = String(flow.amount);
        intent('convert', { type: 'convert.amount', value: amount }, 300);
        const quote = () => {
          quotes += 1;
          const rid = request('POST', '/convert/quote', { body: { from: 'USDT', to: 'BTC', amount, account: 'fund' } });
          t += 60;
          const q = { quoteId: `q${quotes}`, from: 'USDT', to: 'BTC', rate: '0.00002', fromAmount: `${amount}.000000`, toAmount: (flow.amount * 0.00002).toFixed(8), fee: '0', account: 'fund', createdAt: START + t, expiresAt: START + t + 8000 };
          push('http.response', { id: rid, envelope: { code: 200, msg: 'success', data: q } });
          return q;
        };
        intent('convert', { type: 'convert.preview' });
        let q = quote();
        let asked = 1;
        if (flow.wait > 8000) {
          // The window closed on the replay clock at the recorded time; the user asks again.
          t += 8000;
          expectScreen({ key: 'convert', value: 'expired', context: { error: CONVERT_MSG.quoteExpired } });
          intent('convert', { type: 'convert.requote' }, flow.wait - 8000);
          q = quote();
          asked = 2;
        }
        intent('convert', { type: 'convert.confirm' }, Math.min(flow.wait, 7000));
        const rid = request('POST', '/convert', { body: { quoteId: q.quoteId } });
        if (flow.refused) {
          answer(rid, 400, CONVERT_MSG.quoteExpired, null);
          expectScreen({ key: 'convert', value: 'expired', context: { quotes: asked, converts: 1 } });
        } else {
          answer(rid, 200, 'success', { ...q, id: quotes, time: START + t });
          expectScreen({ key: 'convert', value: 'done', context: { quotes: asked, converts: 1, result: { quoteId: q.quoteId } } });
        }
        break;
      }
    }
    // The user leaves the screen (its actor stops; the next flow starts a fresh one).
    t += 300;
    push('ui.route', { path: '/' });
  });
  t += 500;
  push('ui.route', { path: '/help-center' });
  const lines = [JSON.stringify({ format: 'rft-log', version: 1, startedAt: START, firstSeq: 1 }), ...recs.map((r, i) => JSON.stringify({ seq: i + 1, ...r }))];
  return `${lines.join('\n')}\n`;
}

/** True when `want` (a JSON subset) is found in `got`: objects by key, everything else equal. */
function contains(got: unknown, want: unknown): boolean {
  if (typeof want === 'object' && want !== null && !Array.isArray(want)) {
    if (typeof got !== 'object' || got === null) return false;
    return Object.entries(want).every(([k, v]) => contains((got as Record<string, unknown>)[k], v));
  }
  return stableStringify(got) === stableStringify(want);
}

/**
 * The property's check, with named invariants: the log replays to the same hash at every record
 * twice; nothing diverges (every flow request is made, as recorded); no write is left to screens and
 * every screen intent reaches an actor; each `expect.screen` holds; no flow survives its screen.
 * `wrong` lets a test break it on purpose (the shrinker test).
 */
export async function checkScreenFlowLog(log: ParsedLog, wrong?: (e: ScreenExpectation) => ScreenExpectation): Promise<void> {
  const a = await replayLog(log, { hashEveryRecord: true, checkpointEvery: 1 });
  const b = await replayLog(log, { hashEveryRecord: true });
  await holds('same log, same hash after every record', () => expect(b.hashes).toEqual(a.hashes));
  await holds('nothing diverges from the recording', () => expect(a.divergences.map((d) => `@${d.seq} ${d.message}`)).toEqual([]));
  await holds('every screen intent reaches an actor and no write is left to screens', () => {
    expect(a.screenMisses).toEqual([]);
    expect(a.unissuedWrites).toBe(0);
  });
  const bySeq = new Map(a.checkpoints.map((c) => [c.seq, c]));
  for (const rec of log.records) {
    if (rec.kind !== 'expect.screen') continue;
    const raw = rec.check as ScreenExpectation;
    const e = wrong ? wrong(raw) : raw;
    await holds('each flow is in the state the recording expects', () => {
      const got = bySeq.get(rec.seq)?.state.screens?.[e.key];
      if (!got || !contains(got.value, e.value) || (e.context && !contains(got.context, e.context))) {
        throw new Error(`@${rec.seq} ${e.key}: expected ${JSON.stringify({ value: e.value, context: e.context })}, got ${JSON.stringify(got ?? null).slice(0, 600)}`);
      }
    });
  }
  await holds('no flow outlives its screen', () => expect(a.final.state.screens).toBeUndefined());
  for (const cp of a.checkpoints) await holds('no invariant violation at any record', () => expect(cp.violations, `@${cp.seq}`).toEqual([]));
}
