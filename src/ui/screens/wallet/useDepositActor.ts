import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { depositMachine, type DepositPick } from '../../../machines/depositMachine.ts';
import { MONEY_PATHS, type DepositAddress } from '../../../protocol/wallet.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { useScreenActor } from '../../hooks/useScreenActor.ts';

/**
 * The deposit screen's wiring to depositMachine, in one place (the core may own the actor later):
 * the address request through the recorded Http port and the actor with its UI intents (coin and
 * network picks) in the event log (name 'deposit').
 */
export function useDepositActor() {
  const api = useApi();
  const logic = useMemo(
    () =>
      depositMachine.provide({
        actors: {
          fetchAddress: fromPromise<DepositAddress, DepositPick>(({ input }) => api.get<DepositAddress>(MONEY_PATHS.depositAddress.replace(/^\/api/, ''), { ...input })),
        },
      }),
    [api],
  );
  return useScreenActor('deposit', logic);
}
