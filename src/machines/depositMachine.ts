import { assign, fromPromise, setup } from 'xstate';
import { chainRule, type DepositAddress, type MoneyCoin, type Network } from '../protocol/wallet.ts';
import { firstNetwork } from './withdrawalMachine.ts';

/**
 * The deposit address on /my/wallet/deposit (issue 12; docs/WALLET.md):
 *
 * ```
 * loading ─ok→ ready        ─error→ failed ─dep.retry→ loading
 * dep.coin / dep.network (anywhere) → loading (the coin's first network when the coin is not on the current one)
 * ```
 *
 * Invariants (tests/property/depositMachine.prop.test.ts):
 * - the address shown is always the answer for the coin and network picked: an answer for an
 *   earlier pick is never shown (leaving `loading` stops its request, so a late answer is not heard);
 * - the picked network is always one the coin is on (CHAIN_RULES).
 *
 * No globals: `fetchAddress` is an actor the screen provides (the recorded Http port); no timer.
 */

export interface DepositPick {
  coin: MoneyCoin;
  network: Network;
}

export interface DepositContext {
  pick: DepositPick;
  address: DepositAddress | null;
  error: string | null;
}

export type DepositEvent = { type: 'dep.coin'; coin: MoneyCoin } | { type: 'dep.network'; network: Network } | { type: 'dep.retry' };

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}

const fetchNotProvided = fromPromise<DepositAddress, DepositPick>(async () => {
  throw new Error("depositMachine: actor 'fetchAddress' not provided");
});

const picks = {
  'dep.coin': { target: '#deposit.loading', reenter: true, actions: 'setCoin' },
  'dep.network': { target: '#deposit.loading', reenter: true, actions: 'setNetwork' },
} as const;

export const depositMachine = setup({
  types: { context: {} as DepositContext, events: {} as DepositEvent },
  actors: { fetchAddress: fetchNotProvided },
  actions: {
    setCoin: assign(({ context, event }) => {
      if (event.type !== 'dep.coin') return {};
      const network = chainRule(event.coin, context.pick.network) ? context.pick.network : firstNetwork(event.coin);
      return { pick: { coin: event.coin, network }, address: null, error: null };
    }),
    setNetwork: assign(({ context, event }) =>
      event.type === 'dep.network' && chainRule(context.pick.coin, event.network) ? { pick: { ...context.pick, network: event.network }, address: null, error: null } : {},
    ),
    takeAddress: assign({ address: ({ event }) => (event as unknown as { output: DepositAddress }).output, error: null }),
    takeError: assign({ error: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
  },
}).createMachine({
  id: 'deposit',
  context: { pick: { coin: 'USDT', network: 'TRC20' }, address: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      on: picks,
      invoke: {
        src: 'fetchAddress',
        input: ({ context }) => context.pick,
        onDone: { target: 'ready', actions: 'takeAddress' },
        onError: { target: 'failed', actions: 'takeError' },
      },
    },
    ready: { on: picks },
    failed: { on: { ...picks, 'dep.retry': 'loading' } },
  },
});

export type DepositStateName = 'loading' | 'ready' | 'failed';
