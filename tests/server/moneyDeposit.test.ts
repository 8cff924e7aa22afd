import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidAddress } from '../../server/money/addresses.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { CHAIN_RULES, MONEY_PATHS, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { ChainRule, Deposit, DepositAddress } from '../../src/protocol/wallet.ts';
import { call } from './harness.ts';
import { api, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';


let m: MoneyHarness;
beforeAll(async () => {
  m = await startMoney();
});
afterAll(async () => m.close());

describe('deposit addresses', () => {
  it('one valid address per user and network, the same on every visit, different per user and network', async () => {
    const a = await m.user('dep-a@example.com');
    const b = await m.user('dep-b@example.com');
    const byNetwork = new Map<string, Set<string>>();
    for (const rule of CHAIN_RULES) {
      const q = `?coin=${rule.coin}&network=${rule.network}`;
      const first = await call<DepositAddress>(m.h, `${api(MONEY_PATHS.depositAddress)}${q}`, { token: a.token });
      const again = await call<DepositAddress>(m.h, `${api(MONEY_PATHS.depositAddress)}${q}`, { token: a.token });
      const other = await call<DepositAddress>(m.h, `${api(MONEY_PATHS.depositAddress)}${q}`, { token: b.token });
      expect(first.data).toEqual({ coin: rule.coin, network: rule.network, address: first.data.address, minDeposit: rule.minDeposit, confirmations: rule.confirmations });
      expect(again.data.address).toBe(first.data.address);
      expect(other.data.address).not.toBe(first.data.address);
      expect(isValidAddress(rule.format, first.data.address)).toBe(true);
      const shape = { tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, evm: /^0x[0-9a-fA-F]{40}$/, bitcoin: /^bc1q[02-9ac-hj-np-z]{38}$/ }[rule.format];
      expect(first.data.address).toMatch(shape);
      byNetwork.set(rule.network, (byNetwork.get(rule.network) ?? new Set()).add(first.data.address));
    }
    // USDT and ETH on ERC20 share the user's ERC20 address; the four networks' addresses differ.
    expect([...byNetwork.values()].map((s) => s.size)).toEqual([1, 1, 1, 1]);
    expect(new Set([...byNetwork.values()].flatMap((s) => [...s])).size).toBe(4);
  });

  it('refuses unknown coins and networks with their own messages', async () => {
    const u = await m.user('dep-bad@example.com');
    const coin = await call(m.h, `${api(MONEY_PATHS.depositAddress)}?coin=DOGE&network=TRC20`, { token: u.token });
    expect([coin.code, coin.msg]).toEqual([400, WALLET_MSG.unknownCoin]);
    const net = await call(m.h, `${api(MONEY_PATHS.depositAddress)}?coin=BTC&network=TRC20`, { token: u.token });
    expect([net.code, net.msg]).toEqual([400, WALLET_MSG.unknownNetwork]);
    expect((await call(m.h, `${api(MONEY_PATHS.depositAddress)}?coin=BTC&network=Bitcoin`)).code).toBe(401);
  });
});

describe('simulated chain', () => {
  it('seen → confirmations on the server clock → credited at N, a frame at each step', async () => {
    const u = await m.user('dep-chain@example.com');
    const rule = CHAIN_RULES.find((r) => r.coin === 'USDT' && r.network === 'TRC20') as ChainRule;
    const before = await m.balance(u.token, 'fund', 'USDT');
    expect(before).toBe('10000.000000');
    const sent = await call<Deposit>(m.h, api(MONEY_PATHS.devDeposit), { body: { email: 'dep-chain@example.com', coin: 'USDT', network: 'TRC20', amount: '100' } });
    expect(sent.code).toBe(200);
    expect(sent.data).toMatchObject({ status: 'confirming', confirmations: 0, required: rule.confirmations, amount: '100.000000' });
    expect(sent.data.txid).toMatch(/^[0-9a-f]{64}$/);
    const steps: number[] = [];
    for (let i = 1; i <= rule.confirmations; i += 1) {
      m.h.clock.advance(rule.blockMs);
      await m.jobs();
      const last = u.frames.filter((f) => f.type === 'deposit').at(-1)?.data as Deposit;
      steps.push(last.confirmations);
      if (i < rule.confirmations) expect(await m.balance(u.token, 'fund', 'USDT')).toBe('10000.000000');
    }
    expect(steps).toEqual(Array.from({ length: rule.confirmations }, (_, i) => i + 1));
    const credited = u.frames.filter((f) => f.type === 'deposit').at(-1)?.data as Deposit;
    expect(credited).toMatchObject({ status: 'credited', confirmations: rule.confirmations, creditedAt: m.h.clock.now() });
    // The last frame of the credit (the 'depositCredited' notification is pushed on its own time, before or after it).
    expect(u.frames.filter((f) => f.type !== 'notification').at(-1)).toEqual({ type: 'balance', data: expect.objectContaining({ wallet: 'fund', coin: 'USDT', available: '10100.000000' }) });
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('10100.000000');
    // Running the job again credits nothing twice.
    m.h.clock.advance(60_000);
    await m.jobs();
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('10100.000000');
    const list = await call<Page<Deposit>>(m.h, api(MONEY_PATHS.deposits), { token: u.token });
    expect(list.data.list.map((d) => [d.status, d.amount])).toEqual([['credited', '100.000000']]);
  });

  it('a deposit below the minimum is recorded with its status and never credited', async () => {
    const u = await m.user('dep-small@example.com');
    const r = await call<Deposit>(m.h, api(MONEY_PATHS.devDeposit), { body: { email: 'dep-small@example.com', coin: 'BTC', network: 'Bitcoin', amount: '0.0004' } });
    expect([r.code, r.msg, r.data.status]).toEqual([200, WALLET_MSG.depositBelowMinimum, 'belowMinimum']);
    expect(u.frames.map((f) => [f.type, (f.data as Deposit).status])).toEqual([['deposit', 'belowMinimum']]);
    m.h.clock.advance(3_600_000);
    await m.jobs();
    expect(await m.balance(u.token, 'fund', 'BTC')).toBe('0');
    const list = await call<Page<Deposit>>(m.h, `${api(MONEY_PATHS.deposits)}?status=belowMinimum`, { token: u.token });
    expect(list.data.total).toBe(1);
  });

  it('the operator endpoint refuses an unknown user, coin, network and a bad amount', async () => {
    const send = (body: object) => call(m.h, api(MONEY_PATHS.devDeposit), { body: { email: 'dep-a@example.com', coin: 'USDT', network: 'TRC20', amount: '5', ...body } });
    expect((await send({ email: 'nobody@example.com' })).msg).toBe(WALLET_MSG.userNotFound);
    expect((await send({ coin: 'XRP' })).msg).toBe(WALLET_MSG.unknownCoin);
    expect((await send({ network: 'Solana' })).msg).toBe(WALLET_MSG.unknownNetwork);
    expect((await send({ amount: '0' })).msg).toBe(WALLET_MSG.depositAmountInvalid);
    expect((await send({ amount: '1.0000001' })).msg).toBe(WALLET_MSG.depositAmountInvalid);
  });
});
