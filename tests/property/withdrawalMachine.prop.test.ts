import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { checkWithdrawalForm, withdrawalMachine, type WithdrawalForm } from '../../src/machines/withdrawalMachine.ts';
import { WALLET_MSG, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../../src/protocol/wallet.ts';
import { parseScaled } from '../../src/protocol/decimal.ts';
import { createRedactor } from '../../src/ports/redact.ts';

/**
 * Invariants of the withdrawal machine over random interleavings of form input, clicks (double
 * clicks included), info answers (locked or not) and submit answers:
 * - one request per confirm and never two in flight;
 * - nothing is sent while locked or for a form breaking a client rule; what is sent has
 *   amount ≥ minimum and amount + fee ≤ available (exact decimals) and a code;
 * - a refused submit always leaves `submitError` set to the server's msg.
 */

const settle = () => new Promise((r) => setTimeout(r, 0));

interface Pending<I, O> {
  input: I;
  resolve: (o: O) => void;
  reject: (e: Error) => void;
}

function info(coin: MoneyCoin, network: Network, available: string, locked: boolean): WithdrawInfo {
  const fee = coin === 'USDT' ? '1' : '0.0002';
  const min = coin === 'USDT' ? '10' : '0.001';
  const max = (parseScaled(available) ?? 0n) > (parseScaled(fee) ?? 0n) ? String(Number(available) - Number(fee)) : '0';
  return { coin, network, available, minWithdrawal: min, fee, max, security: 'email', lock: locked ? { reason: 'change', until: 100, leftMs: 50 } : null };
}

type Cmd =
  | { k: 'coin'; coin: MoneyCoin }
  | { k: 'address'; value: string }
  | { k: 'amount'; value: string }
  | { k: 'max' | 'next' | 'back' | 'submit' | 'doubleSubmit' | 'again' | 'retry' }
  | { k: 'code'; value: string }
  | { k: 'info'; available: string; locked: boolean; fail: boolean }
  | { k: 'answer'; how: 'ok' | 'lock' | 'code' | 'balance' }
  | { k: 'fillValid' };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('coin' as const), coin: fc.constantFrom<MoneyCoin>('USDT', 'BTC') }),
  fc.record({ k: fc.constant('address' as const), value: fc.constantFrom('', '  ', 'TXYZ') }),
  fc.record({ k: fc.constant('amount' as const), value: fc.constantFrom('', '0', '5', '10', '99', '100', '0.3', '0.001') }),
  fc.constantFrom(...(['max', 'next', 'next', 'back', 'submit', 'submit', 'doubleSubmit', 'again', 'retry'] as const).map((k) => ({ k }))),
  fc.record({ k: fc.constant('code' as const), value: fc.constantFrom('', '123456') }),
  fc.record({ k: fc.constant('info' as const), available: fc.constantFrom('0', '11', '100', '0.3'), locked: fc.boolean(), fail: fc.boolean() }),
  fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('ok' as const, 'lock' as const, 'code' as const, 'balance' as const) }),
);

/** What a user does to send one: an open account, a valid form, a code, confirm (twice, sometimes). */
const happyPath: Cmd[] = [
  { k: 'info', available: '100', locked: false, fail: false },
  { k: 'fillValid' },
  { k: 'next' },
  { k: 'code', value: '123456' },
  { k: 'doubleSubmit' },
];
const cmdsArb = fc
  .array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 8 }, { arbitrary: fc.constant(happyPath), weight: 1 }), { minLength: 4, maxLength: 30 })
  .map((groups) => groups.flat());

const REFUSAL = { lock: WALLET_MSG.lockedAfterChange, code: WALLET_MSG.codeInvalid, balance: WALLET_MSG.insufficientBalance } as const;

describe('withdrawalMachine properties', () => {
  it('one request per confirm, nothing sent while locked or for a bad form, a refusal always says why', async () => {
    let sentTotal = 0;
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(cmdsArb, async (cmds) => {
        const infos: Pending<{ coin: MoneyCoin; network: Network }, WithdrawInfo>[] = [];
        const submits: Pending<WithdrawalForm, Withdrawal>[] = [];
        let started = 0;
        const actor = createActor(
          withdrawalMachine.provide({
            actors: {
              fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input }) => new Promise((resolve, reject) => void infos.push({ input, resolve, reject }))),
              submit: fromPromise<Withdrawal, WithdrawalForm>(({ input }) => new Promise((resolve, reject) => {
                started += 1;
                submits.push({ input, resolve, reject });
              })),
            },
          }),
        );
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const startedBefore = started;
          switch (c.k) {
            case 'coin': actor.send({ type: 'wd.coin', coin: c.coin }); break;
            case 'address': actor.send({ type: 'wd.address', value: c.value }); break;
            case 'amount': actor.send({ type: 'wd.amount', value: c.value }); break;
            case 'code': actor.send({ type: 'wd.code', code: c.value }); break;
            case 'max': actor.send({ type: 'wd.max' }); break;
            case 'next': actor.send({ type: 'wd.next' }); break;
            case 'back': actor.send({ type: 'wd.back' }); break;
            case 'submit': actor.send({ type: 'wd.submit' }); break;
            case 'doubleSubmit': actor.send({ type: 'wd.submit' }); actor.send({ type: 'wd.submit' }); break;
            case 'again': actor.send({ type: 'wd.again' }); break;
            case 'retry': actor.send({ type: 'wd.retry' }); break;
            case 'fillValid':
              actor.send({ type: 'wd.address', value: 'TXYZ' });
              actor.send({ type: 'wd.amount', value: before.context.form.coin === 'USDT' ? '10' : '0.001' });
              break;
            case 'info': {
              const p = infos.shift();
              if (!p) break;
              if (c.fail) p.reject(new Error('Network Error'));
              else p.resolve(info(p.input.coin, p.input.network, c.available, c.locked));
              break;
            }
            case 'answer': {
              const p = submits.shift();
              if (!p) break;
              if (c.how === 'ok') p.resolve({ id: 1, coin: p.input.coin, network: p.input.network, address: p.input.address, amount: p.input.amount, fee: '1', total: '0', status: 'pending', txid: '', reason: '', time: 1, updatedAt: 1 });
              else p.reject(new Error(REFUSAL[c.how]));
              break;
            }
          }
          await settle();
          const after = actor.getSnapshot();
          expect(submits.length).toBeLessThanOrEqual(1);
          expect(after.context.submits).toBe(started);
          if (started > startedBefore) {
            sentTotal += 1;
            expect(started).toBe(startedBefore + 1);
            expect(['submit', 'doubleSubmit']).toContain(c.k);
            expect(before.value).toBe('securityStep');
            const sent = submits.at(-1)!.input;
            const inf = before.context.info!;
            expect(inf.lock).toBeNull();
            expect(sent.code).not.toBe('');
            expect(sent.address).not.toBe('');
            expect(checkWithdrawalForm(sent, inf)).toEqual({});
            const total = (parseScaled(sent.amount) ?? 0n) + (parseScaled(inf.fee) ?? 0n);
            expect(total <= (parseScaled(inf.available) ?? 0n)).toBe(true);
            expect((parseScaled(sent.amount) ?? 0n) >= (parseScaled(inf.minWithdrawal) ?? 0n)).toBe(true);
          }
          if (c.k === 'answer' && c.how !== 'ok' && before.value === 'submitting') {
            refusals += 1;
            expect(after.context.submitError).toBe(REFUSAL[c.how]);
          }
          if (after.value === 'locked') expect(after.context.info?.lock).not.toBeNull();
        }
        actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(sentTotal).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
  });

  it('the form rules: address, amount, minimum with the coin, amount + fee within the balance', () => {
    const inf = info('USDT', 'TRC20', '100', false);
    const f = (address: string, amount: string) => checkWithdrawalForm({ coin: 'USDT', network: 'TRC20', address, amount, code: '' }, inf);
    expect(f('', '')).toEqual({ address: WALLET_MSG.addressRequired, amount: WALLET_MSG.amountRequired });
    expect(f('T1', '9.999999')).toEqual({ amount: 'The minimum withdrawal amount is:10 USDT' });
    expect(f('T1', '99')).toEqual({});
    expect(f('T1', '99.000001')).toEqual({ amount: WALLET_MSG.insufficientBalance });
  });

  it('a typed verification code never reaches the event log: the intent carries it under a secret key', () => {
    const r = createRedactor();
    const intent = r.redact({ type: 'wd.code', code: '654321' }) as { code: string };
    expect(intent.code).toMatch(/^<redacted:code#\d+>$/);
    // the request body gets the same placeholder, so a replayed request matches the recorded one
    expect((r.redact({ coin: 'USDT', code: '654321' }) as { code: string }).code).toBe(intent.code);
  });
});
