import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { checkConvertForm, convertMachine, convertStateOf, quoteTtl, type ConvertForm, type QuoteAnswer } from '../../src/machines/convertMachine.ts';
import { CONVERT_MSG, QUOTE_TTL_MS, type Conversion, type ConvertCoin, type Quote } from '../../src/protocol/convert.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the convert machine over random interleavings of form edits, clicks (double
 * clicks included), server answers and time passing on a simulated clock:
 * - one convert request per confirmed quote and never two in flight (a double click converts once);
 * - a quote is never sent once its lifetime has passed on the machine's clock;
 * - every refusal (client rule or server msg) leaves `error` set, so the screen says why;
 * - the countdown never shows more seconds than the quote has left, and reaches `expired` on time.
 */


interface Pending<I, O> {
  input: I;
  resolve: (o: O) => void;
  reject: (e: Error) => void;
}

type Cmd =
  | { k: 'from' | 'to'; coin: ConvertCoin }
  | { k: 'swap' }
  | { k: 'amount'; value: string }
  | { k: 'preview' | 'confirm' | 'doubleConfirm' | 'cancel' | 'requote' | 'again' }
  | { k: 'quoteAnswer'; ok: boolean; lag: number }
  | { k: 'convertAnswer'; how: 'ok' | 'expired' | 'balance' }
  | { k: 'wait'; ms: number };

const coinArb = fc.constantFrom<ConvertCoin>('USDT', 'BTC', 'ETH');
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constantFrom('from' as const, 'to' as const), coin: coinArb }),
  fc.constant({ k: 'swap' as const }),
  fc.record({ k: fc.constant('amount' as const), value: fc.constantFrom('', '0', '100', '0.5', '12.25') }),
  fc.constantFrom(...(['preview', 'preview', 'confirm', 'doubleConfirm', 'cancel', 'requote', 'again'] as const).map((k) => ({ k }))),
  fc.record({ k: fc.constant('quoteAnswer' as const), ok: fc.boolean(), lag: fc.nat(1500) }),
  fc.record({ k: fc.constant('convertAnswer' as const), how: fc.constantFrom('ok' as const, 'ok' as const, 'expired' as const, 'balance' as const) }),
  fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(300, 999, 1000, 2500, 7999, 8000, 9000) }),
);

/** What a user does: preview, get the quote, click Convert twice (it answers) — or wait it out, then click. */
const fill: Cmd[] = [{ k: 'cancel' }, { k: 'again' }, { k: 'amount', value: '100' }, { k: 'preview' }, { k: 'quoteAnswer', ok: true, lag: 200 }];
const convertPath: Cmd[] = [...fill, { k: 'doubleConfirm' }, { k: 'convertAnswer', how: 'ok' }];
const expiryPath: Cmd[] = [...fill, { k: 'wait', ms: 9000 }, { k: 'confirm' }];
const cmdsArb = fc
  .array(
    fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 10 }, { arbitrary: fc.constant(convertPath), weight: 1 }, { arbitrary: fc.constant(expiryPath), weight: 1 }),
    { minLength: 3, maxLength: 30 },
  )
  .map((groups) => groups.flat());

function harness() {
  const clock = new SimulatedClock();
  clock.set(1_000_000);
  const quotes: Pending<ConvertForm, QuoteAnswer>[] = [];
  const converts: Pending<{ quoteId: string }, Conversion>[] = [];
  /** quoteId → the instant (machine clock) after which it must not be sent. */
  const deadline = new Map<string, number>();
  let startedConverts = 0;
  let maxInFlight = 0;
  const actor = createActor(
    convertMachine.provide({
      actors: {
        requestQuote: fromPromise<QuoteAnswer, ConvertForm>(({ input }) => new Promise((resolve, reject) => void quotes.push({ input, resolve, reject }))),
        convert: fromPromise<Conversion, { quoteId: string }>(
          ({ input }) =>
            new Promise((resolve, reject) => {
              startedConverts += 1;
              converts.push({ input, resolve, reject });
              maxInFlight = Math.max(maxInFlight, converts.length);
            }),
        ),
      },
    }),
    { clock },
  );
  actor.start();
  return { actor, clock, quotes, converts, deadline, started: () => startedConverts, maxInFlight: () => maxInFlight };
}

let seq = 0;
function makeQuote(form: ConvertForm, createdAt: number): Quote {
  seq += 1;
  return { quoteId: `q${seq}`, from: form.from, to: form.to, rate: '0.00001', fromAmount: form.amount, toAmount: '0.001', fee: '0', account: form.account, createdAt, expiresAt: createdAt + QUOTE_TTL_MS };
}

describe('convertMachine properties', () => {
  it('converts once per quote, never after it expired, and always says why when refused', async () => {
    let convertsSeen = 0;
    let expiries = 0;
    await fc.assert(
      fc.asyncProperty(cmdsArb, async (cmds) => {
        const h = harness();
        h.actor.send({ type: 'convert.amount', value: '100' });
        const sentIds: string[] = [];
        for (const c of cmds) {
          const before = h.actor.getSnapshot();
          const startedBefore = h.started();
          switch (c.k) {
            case 'from':
              h.actor.send({ type: 'convert.from', coin: c.coin });
              break;
            case 'to':
              h.actor.send({ type: 'convert.to', coin: c.coin });
              break;
            case 'swap':
              h.actor.send({ type: 'convert.swap' });
              break;
            case 'amount':
              h.actor.send({ type: 'convert.amount', value: c.value });
              break;
            case 'preview':
              h.actor.send({ type: 'convert.preview' });
              break;
            case 'confirm':
              h.actor.send({ type: 'convert.confirm' });
              break;
            case 'doubleConfirm':
              h.actor.send({ type: 'convert.confirm' });
              h.actor.send({ type: 'convert.confirm' });
              break;
            case 'cancel':
              h.actor.send({ type: 'convert.cancel' });
              break;
            case 'requote':
              h.actor.send({ type: 'convert.requote' });
              break;
            case 'again':
              h.actor.send({ type: 'convert.again' });
              break;
            case 'quoteAnswer': {
              const p = h.quotes.shift();
              if (!p) break;
              if (!c.ok) p.reject(new Error(CONVERT_MSG.insufficientBalance));
              else {
                // the server made the quote `lag` ms before it reached us
                const now = h.clock.now();
                const q = makeQuote(p.input, now - c.lag);
                h.deadline.set(q.quoteId, q.expiresAt);
                p.resolve({ quote: q, receivedAt: now });
              }
              break;
            }
            case 'convertAnswer': {
              const p = h.converts.shift();
              if (!p) break;
              if (c.how === 'ok') p.resolve({ ...makeQuote(DEFAULT, 0), quoteId: p.input.quoteId, id: 1, time: h.clock.now() });
              else p.reject(new Error(c.how === 'expired' ? CONVERT_MSG.quoteExpired : CONVERT_MSG.insufficientBalance));
              break;
            }
            case 'wait':
              // time passes smoothly, as on a real clock
              for (let left = c.ms; left > 0; left -= 250) h.clock.increment(Math.min(250, left));
              break;
          }
          await settle();
          const after = h.actor.getSnapshot();
          const state = convertStateOf(after.value);
          // never two converts in flight; a convert starts only on a confirm, from a live quote
          expect(h.converts.length).toBeLessThanOrEqual(1);
          if (h.started() > startedBefore) {
            expect(h.started()).toBe(startedBefore + 1);
            expect(['confirm', 'doubleConfirm']).toContain(c.k);
            expect(convertStateOf(before.value)).toBe('quoted');
            const id = h.converts.at(-1)?.input.quoteId ?? '';
            expect(sentIds).not.toContain(id);
            expect(h.clock.now()).toBeLessThan(h.deadline.get(id) ?? 0);
            sentIds.push(id);
            convertsSeen += 1;
          }
          expect(after.context.converts).toBe(h.started());
          // a quote shown as live has time left on the clock, and the countdown never overstates it
          if (state === 'quoted') {
            const q = after.context.quote;
            expect(q).not.toBeNull();
            const left = (h.deadline.get(q?.quoteId ?? '') ?? 0) - h.clock.now();
            expect(left).toBeGreaterThan(0);
            expect(after.context.secondsLeft).toBe(Math.ceil(left / 1000));
          }
          if (state === 'expired') {
            expiries += 1;
            expect(after.context.error).toBe(CONVERT_MSG.quoteExpired);
          }
          // a refusal always says why
          if (c.k === 'preview' && state === 'idle' && convertStateOf(before.value) === 'idle') expect(after.context.error).toBe(checkConvertForm(after.context.form));
          if (c.k === 'quoteAnswer' && !c.ok && convertStateOf(before.value) === 'quoting') expect(after.context.error).toBe(CONVERT_MSG.insufficientBalance);
          if (c.k === 'convertAnswer' && c.how !== 'ok' && convertStateOf(before.value) === 'converting') expect(after.context.error).not.toBeNull();
          expect(after.context.form.from).not.toBe(after.context.form.to);
        }
        h.actor.stop();
      }),
      { numRuns: 150 },
    );
    // the generator reaches the interesting paths
    expect(convertsSeen).toBeGreaterThan(0);
    expect(expiries).toBeGreaterThan(0);
  });

  it('a quote expires at exactly its lifetime on the clock, and a confirm after that sends nothing', async () => {
    const h = harness();
    h.actor.send({ type: 'convert.amount', value: '100' });
    h.actor.send({ type: 'convert.preview' });
    await settle();
    const p = h.quotes.shift();
    const q = makeQuote(p!.input, h.clock.now());
    p!.resolve({ quote: q, receivedAt: h.clock.now() });
    await settle();
    expect(h.actor.getSnapshot().context.secondsLeft).toBe(8);
    for (let i = 0; i < 7; i += 1) h.clock.increment(1000);
    h.clock.increment(999);
    expect(convertStateOf(h.actor.getSnapshot().value)).toBe('quoted');
    expect(h.actor.getSnapshot().context.secondsLeft).toBe(1);
    h.clock.increment(1);
    expect(convertStateOf(h.actor.getSnapshot().value)).toBe('expired');
    h.actor.send({ type: 'convert.confirm' });
    await settle();
    expect(h.started()).toBe(0);
    h.actor.send({ type: 'convert.requote' });
    await settle();
    expect(h.quotes).toHaveLength(1);
  });
});

const DEFAULT: ConvertForm = { from: 'USDT', to: 'BTC', amount: '1', account: 'fund' };

describe('quoteTtl', () => {
  it('uses the remaining window when the clocks agree, the full window when they do not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: -1e6, max: 1e6 }), (createdAt, skew) => {
        const q = { createdAt, expiresAt: createdAt + QUOTE_TTL_MS };
        const ttl = quoteTtl(q, createdAt + skew);
        expect(ttl).toBeGreaterThanOrEqual(0);
        expect(ttl).toBeLessThanOrEqual(QUOTE_TTL_MS);
        if (skew >= 0 && skew <= QUOTE_TTL_MS) expect(ttl).toBe(QUOTE_TTL_MS - skew);
        else expect(ttl).toBe(QUOTE_TTL_MS);
      }),
    );
  });
});
