import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_WITHDRAW_LIMIT_USDT, MONEY_PATHS, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { AddressBook, LimitRefusal, Withdrawal, WithdrawInfo } from '../../src/protocol/wallet.ts';
import { withdrawSafetyMsg } from '../../src/protocol/withdrawSafety.ts';
import { formatAddress } from '../../server/money/addresses.ts';
import { call } from './harness.ts';
import { api, HOUR, TRON, EVM, BTC, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';

/**
 * Withdrawal safety (issue 26) over real HTTP: the address book (checked per network, one copy per
 * spelling, renamed, deleted, per account), whitelist-only mode (on with the mail code at once, off
 * 24 h after it was asked for, addresses added under it usable 24 h later, refusals before the
 * security code is spent, in the request's language) and the daily limit (unverified / verified,
 * pending + approved of the last 24 h valued at the convert price, cancelled ones not counted).
 */

const TRON2 = formatAddress('tron', new Uint8Array(20).fill(7));
const TRON3 = formatAddress('tron', new Uint8Array(20).fill(9));

let m: MoneyHarness;
beforeAll(async () => {
  m = await startMoney();
});
afterAll(async () => m.close());

const code = (email: string, token: string): Promise<string> => m.securityCode(email, token);
const book = (token: string) => call<AddressBook>(m.h, api(MONEY_PATHS.addresses), { token });
const add = (token: string, body: Record<string, unknown>) =>
  call<AddressBook>(m.h, api(MONEY_PATHS.addresses), { token, body: { coin: 'USDT', network: 'TRC20', address: TRON, label: 'Cold wallet', ...body } });
const whitelist = (token: string, enabled: boolean, c: string) => call<AddressBook>(m.h, api(MONEY_PATHS.whitelist), { token, body: { enabled, code: c } });
const withdraw = (token: string, body: Record<string, unknown>, lang = 'en') =>
  call<Withdrawal | LimitRefusal>(m.h, api(MONEY_PATHS.withdraw), { token, headers: { 'Web-Lang': lang }, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount: '100', ...body } });
const info = (token: string, coin = 'USDT', network = 'TRC20') => call<WithdrawInfo>(m.h, `${api(MONEY_PATHS.withdrawInfo)}?coin=${coin}&network=${network}`, { token });

describe('address book', () => {
  it('saves checked addresses with labels, once per spelling, renames and deletes them, per account', async () => {
    const u = await m.user('ab-crud@example.com');
    const other = await m.user('ab-other@example.com');
    expect((await book(u.token)).data).toEqual({ addresses: [], whitelist: { enabled: false, offAt: null } });
    expect((await add(u.token, { address: 'hello-not-an-address' })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await add(u.token, { address: EVM })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await add(u.token, { label: '  ' })).msg).toBe(WALLET_MSG.labelRequired);
    expect((await add(u.token, { label: 'x'.repeat(41) })).msg).toBe(WALLET_MSG.labelTooLong);
    expect((await add(u.token, { coin: 'DOGE' })).msg).toBe(WALLET_MSG.unknownCoin);
    const saved = await add(u.token, {});
    expect([saved.code, saved.msg]).toEqual([200, WALLET_MSG.addressSaved]);
    const now = m.h.clock.now();
    expect(saved.data.addresses).toEqual([{ id: expect.any(Number), coin: 'USDT', network: 'TRC20', address: TRON, label: 'Cold wallet', createdAt: now, usableAt: now, usable: true }]);
    // EVM spellings are one address: the lower-case copy of a checksummed one is refused.
    expect((await add(u.token, { network: 'ERC20', address: EVM, label: 'Ledger' })).code).toBe(200);
    expect((await add(u.token, { network: 'ERC20', address: EVM.toLowerCase(), label: 'again' })).msg).toBe(WALLET_MSG.addressExists);
    // The same address on another network is another entry.
    expect((await add(u.token, { network: 'BEP20', address: EVM, label: 'BSC' })).data.addresses).toHaveLength(3);
    const id = saved.data.addresses[0]?.id ?? 0;
    const renamed = await call<AddressBook>(m.h, api(MONEY_PATHS.addressRename), { token: u.token, body: { id, label: 'Exchange B' } });
    expect([renamed.msg, renamed.data.addresses[0]?.label]).toEqual([WALLET_MSG.addressRenamed, 'Exchange B']);
    // Another account can neither see, rename nor delete it.
    expect((await book(other.token)).data.addresses).toEqual([]);
    expect((await call(m.h, api(MONEY_PATHS.addressRename), { token: other.token, body: { id, label: 'mine' } })).msg).toBe(WALLET_MSG.addressNotFound);
    expect((await call(m.h, api(MONEY_PATHS.addressDelete), { token: other.token, body: { id } })).msg).toBe(WALLET_MSG.addressNotFound);
    const deleted = await call<AddressBook>(m.h, api(MONEY_PATHS.addressDelete), { token: u.token, body: { id } });
    expect([deleted.msg, deleted.data.addresses.map((a) => a.network)]).toEqual([WALLET_MSG.addressDeleted, ['ERC20', 'BEP20']]);
    // The withdrawal form's info lists the book's addresses of its coin and network only.
    expect((await info(u.token, 'USDT', 'ERC20')).data.addresses.map((a) => a.label)).toEqual(['Ledger']);
    expect((await book('')).code).toBe(401);
  });
});

describe('whitelist-only mode', () => {
  it('on with the mail code; refuses other addresses before the code is spent; new addresses wait 24 h; off 24 h after it is asked for', async () => {
    const email = 'ab-wl@example.com';
    const u = await m.user(email);
    await add(u.token, { label: 'Saved before' });
    expect((await whitelist(u.token, true, '000000')).msg).toBe(WALLET_MSG.codeInvalid);
    expect((await book(u.token)).data.whitelist.enabled).toBe(false);
    const on = await whitelist(u.token, true, await code(email, u.token));
    expect([on.code, on.msg, on.data.whitelist]).toEqual([200, WALLET_MSG.whitelistOn, { enabled: true, offAt: null }]);

    // An address not in the book: refused in the request's language, and the code stays unspent.
    const c = await code(email, u.token);
    const refused = await withdraw(u.token, { address: TRON2, code: c }, 'zh');
    expect([refused.code, refused.msg]).toEqual([403, withdrawSafetyMsg('zh', { kind: 'notWhitelisted' })]);
    expect((await withdraw(u.token, { address: TRON2, code: c })).msg).toBe(WALLET_MSG.notWhitelisted);
    // The saved one (added while the mode was off) is usable at once, with the same code.
    expect((await withdraw(u.token, { code: c })).code).toBe(200);

    // Added while the mode is on: usable 24 h later.
    const added = await add(u.token, { address: TRON2, label: 'New' });
    const fresh = added.data.addresses.find((a) => a.address === TRON2);
    expect(fresh).toMatchObject({ usable: false, usableAt: m.h.clock.now() + 24 * HOUR });
    const c2 = await code(email, u.token);
    const early = await withdraw(u.token, { address: TRON2, code: c2 }, 'ko');
    expect([early.code, early.msg]).toEqual([403, withdrawSafetyMsg('ko', { kind: 'notYetUsable', hours: 23, minutes: 59 })]);
    m.h.clock.advance(24 * HOUR - 61_000);
    expect((await info(u.token)).data.addresses.find((a) => a.address === TRON2)?.usable).toBe(true);
    expect((await withdraw(u.token, { address: TRON2, code: await code(email, u.token) })).code).toBe(200);

    // Off: asked for with the code, in force 24 h later; until then the mode holds.
    const off = await whitelist(u.token, false, await code(email, u.token));
    const offAt = m.h.clock.now() + 24 * HOUR;
    expect([off.msg, off.data.whitelist]).toEqual([WALLET_MSG.whitelistOffScheduled, { enabled: true, offAt }]);
    // Asking again keeps the first time.
    m.h.clock.advance(HOUR);
    expect((await whitelist(u.token, false, await code(email, u.token))).data.whitelist).toEqual({ enabled: true, offAt });
    const c3 = await code(email, u.token);
    expect((await withdraw(u.token, { address: TRON3, code: c3 })).msg).toBe(WALLET_MSG.notWhitelisted);
    m.h.clock.t = offAt - 1;
    expect((await book(u.token)).data.whitelist.enabled).toBe(true);
    m.h.clock.t = offAt;
    expect((await book(u.token)).data.whitelist).toEqual({ enabled: false, offAt: null });
    expect((await withdraw(u.token, { address: TRON3, code: await code(email, u.token) })).code).toBe(200);
    // Off now: a new address is usable at once.
    expect((await add(u.token, { network: 'ERC20', address: EVM, label: 'x' })).data.addresses.find((a) => a.network === 'ERC20')?.usable).toBe(true);
  });

  it('turning it on again cancels a requested turn-off; the development fast-forward shortens both waits', async () => {
    const email = 'ab-wl2@example.com';
    const u = await m.user(email);
    await whitelist(u.token, true, await code(email, u.token));
    await whitelist(u.token, false, await code(email, u.token));
    const again = await whitelist(u.token, true, await code(email, u.token));
    expect([again.msg, again.data.whitelist]).toEqual([WALLET_MSG.whitelistOffCancelled, { enabled: true, offAt: null }]);
    await add(u.token, {});
    await whitelist(u.token, false, await code(email, u.token));
    await call(m.h, api(MONEY_PATHS.devFastForward), { body: { email, hours: 24 } });
    const b = (await book(u.token)).data;
    expect(b.whitelist).toEqual({ enabled: false, offAt: null });
    expect(b.addresses[0]?.usable).toBe(true);
  });
});

describe('daily withdrawal limit', () => {
  it('counts pending and approved withdrawals of the last 24 h at the convert price; refuses over the limit before the code; verified accounts get the higher limit', async () => {
    const email = 'ab-limit@example.com';
    const u = await m.user(email);
    await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'BTC', network: 'Bitcoin', amount: '0.5' } });
    for (let i = 0; i < 3; i += 1) {
      m.h.clock.advance(10_000);
      await m.jobs();
    }
    expect(await m.balance(u.token, 'fund', 'BTC')).toBe('0.50000000');
    expect((await info(u.token, 'BTC', 'Bitcoin')).data.limit).toEqual({ limit: DAILY_WITHDRAW_LIMIT_USDT.unverified, used: '0', verified: false, price: '50000' });

    const first = await withdraw(u.token, { amount: '9000', code: await code(email, u.token) });
    expect(first.code).toBe(200);
    const c = await code(email, u.token);
    // 0.25 BTC at 50 000 = 12 500 USDT: 9 000 + 12 500 > 20 000, refused before the code is spent.
    const over = await withdraw(u.token, { coin: 'BTC', network: 'Bitcoin', address: BTC, amount: '0.25', code: c });
    expect([over.code, over.msg, over.data]).toEqual([400, withdrawSafetyMsg('en', { kind: 'dailyLimit', used: '9000', limit: '20000', value: '12500' }), { limit: '20000', used: '9000', verified: false, price: '50000', value: '12500' }]);
    expect((await withdraw(u.token, { coin: 'BTC', network: 'Bitcoin', address: BTC, amount: '0.25', code: c }, 'jp')).msg).toBe(
      withdrawSafetyMsg('jp', { kind: 'dailyLimit', used: '9000', limit: '20000', value: '12500' }),
    );
    // Exactly up to the limit is allowed: 9 000 + 0.22 BTC (11 000) = 20 000.
    expect((await withdraw(u.token, { coin: 'BTC', network: 'Bitcoin', address: BTC, amount: '0.22', code: c })).code).toBe(200);
    expect((await info(u.token)).data.limit.used).toBe('20000');
    const c2 = await code(email, u.token);
    expect((await withdraw(u.token, { amount: '10', code: c2 })).msg).toContain('20000 of 20000 USDT');
    // An approved (processing) one still counts; a cancelled one does not.
    await call(m.h, api(MONEY_PATHS.devReview), { body: { id: (first.data as Withdrawal).id, decision: 'approve' } });
    const btcRow = (await call<{ list: Withdrawal[] }>(m.h, api(MONEY_PATHS.withdrawals), { token: u.token })).data.list.find((w) => w.coin === 'BTC');
    await call(m.h, api(MONEY_PATHS.withdrawCancel), { token: u.token, body: { id: btcRow?.id } });
    expect((await info(u.token)).data.limit.used).toBe('9000');
    expect((await withdraw(u.token, { amount: '10', code: c2 })).code).toBe(200);
    // 24 h after the first, it leaves the window.
    m.h.clock.advance(24 * HOUR);
    expect((await info(u.token)).data.limit.used).toBe('0');
    // Verified identity: the higher limit.
    await m.deps.db.updateTable('users').set({ kyc_status: 'verified' }).where('id', '=', u.id).execute();
    expect((await info(u.token)).data.limit).toMatchObject({ limit: DAILY_WITHDRAW_LIMIT_USDT.verified, verified: true });
  });

  it('values other coins at the market price now, rounded up to the USDT minor unit', async () => {
    const email = 'ab-price@example.com';
    const u = await m.user(email);
    await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'ETH', network: 'ERC20', amount: '1' } });
    for (let i = 0; i < 7; i += 1) {
      m.h.clock.advance(5_000);
      await m.jobs();
    }
    m.h.clock.advance(61_000);
    m.source.setPrice('ETHUSDT', 2500.33);
    expect((await withdraw(u.token, { coin: 'ETH', network: 'ERC20', address: EVM, amount: '0.01000001', code: await code(email, u.token) })).code).toBe(200);
    // 0.01000001 × 2500.33 = 25.0033250033 → 25.003326 (rounded up)
    expect((await info(u.token, 'ETH', 'ERC20')).data.limit).toMatchObject({ used: '25.003326', price: '2500.33' });
    m.source.setPrice('ETHUSDT', 2500);
  });
});
