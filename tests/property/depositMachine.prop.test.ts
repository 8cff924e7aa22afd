import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { depositMachine, type DepositPick } from '../../src/machines/depositMachine.ts';
import { chainRule, NETWORKS, type DepositAddress, type MoneyCoin, type Network } from '../../src/protocol/wallet.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the deposit-address machine over random picks and out-of-order answers: the
 * address shown always belongs to the current coin and network (a late answer for an earlier pick
 * is never shown), and the picked network is always one the coin is on.
 */


type Cmd = { k: 'coin'; coin: MoneyCoin } | { k: 'network'; network: Network } | { k: 'answer'; i: number; ok: boolean } | { k: 'retry' };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('coin' as const), coin: fc.constantFrom<MoneyCoin>('USDT', 'BTC', 'ETH') }),
  fc.record({ k: fc.constant('network' as const), network: fc.constantFrom<Network>(...NETWORKS) }),
  fc.record({ k: fc.constant('answer' as const), i: fc.nat(3), ok: fc.boolean() }),
  fc.constant({ k: 'retry' as const }),
);

describe('depositMachine properties', () => {
  it('shows only the address of the current pick, on a network the coin is on', async () => {
    let shown = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 3, maxLength: 30 }), async (cmds) => {
        const pending: { input: DepositPick; resolve: (a: DepositAddress) => void; reject: (e: Error) => void }[] = [];
        const actor = createActor(
          depositMachine.provide({
            actors: { fetchAddress: fromPromise<DepositAddress, DepositPick>(({ input }) => new Promise((resolve, reject) => void pending.push({ input, resolve, reject }))) },
          }),
        );
        actor.start();
        for (const c of cmds) {
          if (c.k === 'coin') actor.send({ type: 'dep.coin', coin: c.coin });
          else if (c.k === 'network') actor.send({ type: 'dep.network', network: c.network });
          else if (c.k === 'retry') actor.send({ type: 'dep.retry' });
          else {
            // any request still pending answers, in any order, possibly long after its pick changed
            const p = pending.splice(c.i % Math.max(1, pending.length), 1)[0];
            if (p) {
              if (c.ok) p.resolve({ ...p.input, address: `${p.input.coin}-${p.input.network}`, minDeposit: '1', confirmations: 6 });
              else p.reject(new Error('Network Error'));
            }
          }
          await settle();
          const s = actor.getSnapshot();
          const { pick, address } = s.context;
          expect(chainRule(pick.coin, pick.network)).toBeDefined();
          if (s.value === 'ready') {
            shown += 1;
            expect(address?.address).toBe(`${pick.coin}-${pick.network}`);
          }
          if (s.value === 'failed') expect(s.context.error).toBe('Network Error');
        }
        actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(shown).toBeGreaterThan(0);
  });
});
