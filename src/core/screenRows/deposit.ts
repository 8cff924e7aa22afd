import { fromPromise } from 'xstate';
import { depositMachine, type DepositPick } from '../../machines/depositMachine.ts';
import { MONEY_PATHS, type DepositAddress } from '../../protocol/wallet.ts';
import { apiPath, row } from './row.ts';

/** The deposit address (src/ui/screens/wallet/DepositScreen.tsx). */
export const deposit = row({
  logic: ({ api }) =>
    depositMachine.provide({
      actors: {
        fetchAddress: fromPromise<DepositAddress, DepositPick>(({ input, signal }) => api.get<DepositAddress>(apiPath(MONEY_PATHS.depositAddress), { ...input }, signal)),
      },
    }),
});
