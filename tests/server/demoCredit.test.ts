import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { isDemoCredit } from '../../src/protocol/demoCredit.ts';
import type { Balance, LedgerEntry } from '../../src/protocol/trading.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { call, login, register, T0, type Harness } from './harness.ts';
import { startEngineServer } from './tradeHarness.ts';

/**
 * Issue 26, Major 7: the 20 000 USDT a new account holds is a demo credit that says so: its ledger
 * entries are marked (the histories name them "Demo credit"), DEMO_CREDIT=0 turns it off, and it is
 * always off under NODE_ENV=production.
 */

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

async function account(demoCredit: boolean | undefined) {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  const { h } = await startEngineServer({ source, bus: createUserEventBus(), ...(demoCredit === undefined ? {} : { config: { demoCredit } }) });
  harnesses.push(h);
  await register(h, 'new@example.com');
  const token = await login(h, 'new@example.com');
  const balances = (await call<Balance[]>(h, '/wallet/balances', { token })).data;
  const ledger = (await call<Page<LedgerEntry>>(h, '/wallet/ledger?pageSize=50', { token })).data.list;
  return { balances, ledger };
}

const usdt = (bs: Balance[], wallet: string) => bs.find((b) => b.wallet === wallet && b.coin === 'USDT')?.available ?? '0';

describe('demo credit', () => {
  it('on (the default outside production): 10 000 USDT in fund and perp, each a ledger entry marked as demo credit', async () => {
    const { balances, ledger } = await account(undefined);
    expect([usdt(balances, 'fund'), usdt(balances, 'perp')].map(Number)).toEqual([10_000, 10_000]);
    const demo = ledger.filter(isDemoCredit);
    expect(demo.map((e) => [e.wallet, Number(e.amount)]).sort()).toEqual([['fund', 10_000], ['perp', 10_000]]);
    expect(ledger.filter((e) => !isDemoCredit(e))).toEqual([]);
  });

  it('off: a new account starts at zero with no entry', async () => {
    const { balances, ledger } = await account(false);
    expect([usdt(balances, 'fund'), usdt(balances, 'perp')].map(Number)).toEqual([0, 0]);
    expect(ledger).toEqual([]);
  });

  it('DEMO_CREDIT=0 turns it off; NODE_ENV=production always does', () => {
    expect(loadConfig({}).demoCredit).toBe(true);
    expect(loadConfig({ DEMO_CREDIT: '0' }).demoCredit).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_CREDIT: '1', OPERATOR_TOKEN: 'x'.repeat(32) }).demoCredit).toBe(false);
  });
});
