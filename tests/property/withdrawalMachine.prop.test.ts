import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { addressProblem, checkWithdrawalForm, withdrawalMachine, type SaveAddressRequest, type WithdrawalForm } from '../../src/machines/withdrawalMachine.ts';
import { WALLET_MSG, type AddressBook, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../../src/protocol/wallet.ts';
import { parseScaled } from '../../src/protocol/decimal.ts';
import { createRedactor } from '../../src/ports/redact.ts';
import { settle } from '../unit/settle.ts';
import { usdtMinor, usdtValueMinor } from '../../src/protocol/withdrawSafety.ts';

/**
 * Invariants of the withdrawal machine over random interleavings of form input, clicks (double
 * clicks included), info answers (locked or not) and submit answers:
 * - one request per confirm and never two in flight;
 * - nothing is sent while locked or for a form breaking a client rule; what is sent has
 *   amount ≥ minimum and amount + fee ≤ available (exact decimals) and a code;
 * - a refused submit always leaves `submitError` set to the server's msg;
 * - typing is never dropped where the screen shows an editable field (the address and amount
 *   while the numbers load and while the address is saved to the book: issue 25's class of defect).
 */


interface Pending<I, O> {
  input: I;
  resolve: (o: O) => void;
  reject: (e: Error) => void;
}

/** Whitelist mode of an info answer (issue 26): off, or on with TRON saved and usable, saved under the mode (waiting), or not saved. */
type Wl = 'off' | 'usable' | 'waiting' | 'missing';

function info(coin: MoneyCoin, network: Network, available: string, locked: boolean, wl: Wl = 'off', used = '0'): WithdrawInfo {
  const fee = coin === 'USDT' ? '1' : '0.0002';
  const min = coin === 'USDT' ? '10' : '0.001';
  const max = (parseScaled(available) ?? 0n) > (parseScaled(fee) ?? 0n) ? String(Number(available) - Number(fee)) : '0';
  return { coin, network, available, minWithdrawal: min, fee, max, security: 'email', lock: locked ? { reason: 'change', until: 100, leftMs: 50 } : null,
    addresses: wl === 'usable' || wl === 'waiting' ? [{ id: 1, coin: 'USDT', network: 'TRC20', address: TRON, label: 'x', createdAt: 0, usableAt: 0, usable: wl === 'usable' }] : [],
    whitelist: { enabled: wl !== 'off', offAt: null },
    limit: { limit: '20000', used, verified: false, price: coin === 'USDT' ? '1' : '50000' } };
}

/** Valid addresses of the two networks the commands use (TRC20 base58check, Bitcoin bech32). */
const TRON = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

type Cmd =
  | { k: 'coin'; coin: MoneyCoin }
  | { k: 'address'; value: string }
  | { k: 'amount'; value: string }
  | { k: 'max' | 'next' | 'back' | 'submit' | 'doubleSubmit' | 'again' | 'retry' }
  | { k: 'code'; value: string }
  | { k: 'info'; available: string; locked: boolean; fail: boolean; wl: Wl; used: string }
  | { k: 'answer'; how: 'ok' | 'lock' | 'code' | 'balance' }
  | { k: 'fillValid' }
  | { k: 'saveLabel'; value: string }
  | { k: 'saveAddress' }
  | { k: 'saveAnswer'; ok: boolean };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('coin' as const), coin: fc.constantFrom<MoneyCoin>('USDT', 'BTC') }),
  fc.record({ k: fc.constant('address' as const), value: fc.constantFrom('', '  ', 'TXYZ', 'hello-not-an-address', TRON, BTC) }),
  fc.record({ k: fc.constant('amount' as const), value: fc.constantFrom('', '0', '5', '10', '99', '100', '0.3', '0.001') }),
  fc.constantFrom(...(['max', 'next', 'next', 'back', 'submit', 'submit', 'doubleSubmit', 'again', 'retry'] as const).map((k) => ({ k }))),
  fc.record({ k: fc.constant('code' as const), value: fc.constantFrom('', '123456') }),
  fc.record({
    k: fc.constant('info' as const), available: fc.constantFrom('0', '11', '100', '0.3'), locked: fc.boolean(), fail: fc.boolean(),
    wl: fc.constantFrom<Wl>('off', 'off', 'usable', 'waiting', 'missing'), used: fc.constantFrom('0', '0', '19990', '19995'),
  }),
  fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('ok' as const, 'lock' as const, 'code' as const, 'balance' as const) }),
  fc.record({ k: fc.constant('saveLabel' as const), value: fc.constantFrom('', 'Cold', 'x'.repeat(61)) }),
  fc.constant({ k: 'saveAddress' as const }),
  fc.record({ k: fc.constant('saveAnswer' as const), ok: fc.boolean() }),
);

/** States whose screen shows the address and amount fields enabled (WithdrawalScreen: inForm and not security). */
const TYPING_STATES: readonly string[] = ['loading', 'editing', 'savingAddress'];

/** What a user does to send one: an open account, a valid form, a code, confirm (twice, sometimes). */
const happyPath: Cmd[] = [
  { k: 'info', available: '100', locked: false, fail: false, wl: 'off', used: '0' },
  { k: 'fillValid' },
  { k: 'next' },
  { k: 'code', value: '123456' },
  { k: 'doubleSubmit' },
];
/** The same under whitelist mode with the address saved and usable (issue 26). */
const happyWhitelisted: Cmd[] = happyPath.map((c) => (c.k === 'info' ? { ...c, wl: 'usable' } : c));
/** Saving the typed address to the book, then going on typing while it saves. */
const saveFlow: Cmd[] = [happyPath[0]!, { k: 'fillValid' }, { k: 'saveLabel', value: 'Cold' }, { k: 'saveAddress' }];
const cmdsArb = fc
  .array(
    fc.oneof(
      { arbitrary: cmdArb.map((c) => [c]), weight: 8 },
      { arbitrary: fc.constant(happyPath), weight: 1 },
      { arbitrary: fc.constant(happyWhitelisted), weight: 1 },
      { arbitrary: fc.constant(saveFlow), weight: 1 },
    ),
    { minLength: 4, maxLength: 30 },
  )
  .map((groups) => groups.flat());

const REFUSAL = { lock: WALLET_MSG.lockedAfterChange, code: WALLET_MSG.codeInvalid, balance: WALLET_MSG.insufficientBalance } as const;

describe('withdrawalMachine properties', () => {
  it('one request per confirm, nothing sent while locked or for a bad form, a refusal always says why', async () => {
    let sentTotal = 0;
    let refusals = 0;
    let safeSent = 0;
    let typedWhileSaving = 0;
    await fc.assert(
      fc.asyncProperty(cmdsArb, async (cmds) => {
        const infos: Pending<{ coin: MoneyCoin; network: Network }, WithdrawInfo>[] = [];
        const submits: Pending<WithdrawalForm, Withdrawal>[] = [];
        const saves: Pending<SaveAddressRequest, AddressBook>[] = [];
        let started = 0;
        const actor = createActor(
          withdrawalMachine.provide({
            actors: {
              fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input }) => new Promise((resolve, reject) => void infos.push({ input, resolve, reject }))),
              submit: fromPromise<Withdrawal, WithdrawalForm>(({ input }) => new Promise((resolve, reject) => {
                started += 1;
                submits.push({ input, resolve, reject });
              })),
              saveAddress: fromPromise<AddressBook, SaveAddressRequest>(({ input }) => new Promise((resolve, reject) => void saves.push({ input, resolve, reject }))),
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
            case 'saveLabel': actor.send({ type: 'wd.saveLabel', value: c.value }); break;
            case 'saveAddress': actor.send({ type: 'wd.saveAddress' }); break;
            case 'saveAnswer': {
              const p = saves.shift();
              if (!p) break;
              if (c.ok) p.resolve({ addresses: [], whitelist: { enabled: false, offAt: null } });
              else p.reject(new Error(WALLET_MSG.addressExists));
              break;
            }
            case 'fillValid':
              actor.send({ type: 'wd.address', value: before.context.form.coin === 'USDT' ? TRON : BTC });
              actor.send({ type: 'wd.amount', value: before.context.form.coin === 'USDT' ? '10' : '0.001' });
              break;
            case 'info': {
              const p = infos.shift();
              if (!p) break;
              if (c.fail) p.reject(new Error('Network Error'));
              else p.resolve(info(p.input.coin, p.input.network, c.available, c.locked, c.wl, c.used));
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
          expect(saves.length).toBeLessThanOrEqual(1);
          if (TYPING_STATES.includes(String(before.value))) {
            if (c.k === 'address') expect(after.context.form.address).toBe(c.value);
            if (c.k === 'amount') expect(after.context.form.amount).toBe(c.value);
            typedWhileSaving += before.value === 'savingAddress' && (c.k === 'address' || c.k === 'amount') ? 1 : 0;
          }
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
            // issue 26: under whitelist mode only a saved, usable address; never over the daily limit (USDT value, exact)
            if (inf.whitelist.enabled) expect(inf.addresses.some((a) => a.address === sent.address && a.usable)).toBe(true);
            const value = usdtValueMinor(sent.amount, inf.limit.price ?? '0') ?? 0n;
            expect((usdtMinor(inf.limit.used) ?? 0n) + value <= (usdtMinor(inf.limit.limit) ?? 0n)).toBe(true);
            safeSent += inf.whitelist.enabled ? 1 : 0;
          }
          if (c.k === 'answer' && c.how !== 'ok' && before.value === 'submitting') {
            refusals += 1;
            expect(after.context.submitError).toBe(REFUSAL[c.how]);
          }
          if (after.value === 'locked') expect(after.context.info?.lock).not.toBeNull();
          // issue 26: an address that is not the network's never reaches the security step (no code spent on it)
          if (after.value === 'securityStep') expect(addressProblem(after.context.form)).toBeNull();
          if (after.value === 'editing' && addressProblem(after.context.form) !== null) expect(after.context.errors.address).toBe(WALLET_MSG.addressInvalid);
        }
        actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(sentTotal).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    expect(safeSent).toBeGreaterThan(0);
    expect(typedWhileSaving).toBeGreaterThan(0);
  });

  it('the form rules: address, amount, minimum with the coin, amount + fee within the balance', () => {
    const inf = info('USDT', 'TRC20', '100', false);
    const f = (address: string, amount: string) => checkWithdrawalForm({ coin: 'USDT', network: 'TRC20', address, amount, code: '' }, inf);
    expect(f('', '')).toEqual({ address: WALLET_MSG.addressRequired, amount: WALLET_MSG.amountRequired });
    expect(f(TRON, '9.999999')).toEqual({ amount: 'The minimum withdrawal amount is:10 USDT' });
    expect(f(TRON, '99')).toEqual({});
    expect(f(TRON, '99.000001')).toEqual({ amount: WALLET_MSG.insufficientBalance });
  });

  it('the address is checked for the chosen network as it is typed: format and checksum (issue 26)', () => {
    const inf = info('USDT', 'TRC20', '100', false);
    const check = (network: Network, address: string, coin: MoneyCoin = 'USDT') => checkWithdrawalForm({ coin, network, address, amount: '99', code: '' }, inf).address ?? null;
    expect(check('TRC20', 'hello-not-an-address')).toBe(WALLET_MSG.addressInvalid);
    expect(check('TRC20', TRON)).toBeNull();
    // one character changed: the base58check checksum fails
    expect(check('TRC20', `${TRON.slice(0, -1)}9`)).toBe(WALLET_MSG.addressInvalid);
    // a Tron address on an EVM network, and an EVM address with a broken EIP-55 checksum
    expect(check('ERC20', TRON)).toBe(WALLET_MSG.addressInvalid);
    expect(check('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(check('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(WALLET_MSG.addressInvalid);
    expect(check('ERC20', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeNull();
    expect(check('Bitcoin', BTC, 'BTC')).toBeNull();
    expect(check('Bitcoin', `${BTC.slice(0, -1)}p`, 'BTC')).toBe(WALLET_MSG.addressInvalid);

    // in the machine: the error shows as soon as the address is typed, Next stays on the form,
    // and a network change checks the address again
    const actor = createActor(
      withdrawalMachine.provide({ actors: { fetchInfo: fromPromise(async ({ input }: { input: { coin: MoneyCoin; network: Network } }) => info(input.coin, input.network, '100', false)) } }),
    ).start();
    return settle().then(async () => {
      actor.send({ type: 'wd.address', value: 'hello-not-an-address' });
      expect(actor.getSnapshot().context.errors.address).toBe(WALLET_MSG.addressInvalid);
      actor.send({ type: 'wd.amount', value: '20' });
      actor.send({ type: 'wd.next' });
      expect(actor.getSnapshot().value).toBe('editing');
      actor.send({ type: 'wd.address', value: TRON });
      expect(actor.getSnapshot().context.errors.address).toBeUndefined();
      actor.send({ type: 'wd.network', network: 'ERC20' });
      await settle();
      expect(actor.getSnapshot().context.errors.address).toBe(WALLET_MSG.addressInvalid);
      actor.send({ type: 'wd.network', network: 'TRC20' });
      await settle();
      expect(actor.getSnapshot().context.errors.address).toBeUndefined();
      actor.send({ type: 'wd.next' });
      expect(actor.getSnapshot().value).toBe('securityStep');
      actor.stop();
    });
  });

  it('a typed verification code never reaches the event log: the intent carries it under a secret key', () => {
    const r = createRedactor();
    const intent = r.redact({ type: 'wd.code', code: '654321' }) as { code: string };
    expect(intent.code).toMatch(/^<redacted:code#\d+>$/);
    // the request body gets the same placeholder, so a replayed request matches the recorded one
    expect((r.redact({ coin: 'USDT', code: '654321' }) as { code: string }).code).toBe(intent.code);
  });
});
