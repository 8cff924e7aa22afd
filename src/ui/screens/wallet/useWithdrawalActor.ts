import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { withdrawalMachine, type WithdrawalForm } from '../../../machines/withdrawalMachine.ts';
import { MONEY_PATHS, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../../../protocol/wallet.ts';
import { useApi, useUserFrames } from '../../app/AppCoreProvider.tsx';
import { useScreenActor } from '../../hooks/useScreenActor.ts';

const path = (p: string) => p.replace(/^\/api/, '');

/**
 * The withdrawal screen's wiring to withdrawalMachine, in one place (the core may own the actor
 * later): the two requests through the recorded Http port, the actor on the core's clock with
 * its UI intents in the event log (name 'withdrawal'), and `balance` frames re-reading the form's
 * numbers (a derived event, not recorded).
 */
export function useWithdrawalActor() {
  const api = useApi();
  const frames$ = useUserFrames();
  const logic = useMemo(
    () =>
      withdrawalMachine.provide({
        actors: {
          fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input }) => api.get<WithdrawInfo>(path(MONEY_PATHS.withdrawInfo), input)),
          submit: fromPromise<Withdrawal, WithdrawalForm>(({ input }) => api.post<Withdrawal>(path(MONEY_PATHS.withdraw), input)),
        },
      }),
    [api],
  );
  const [actor, send] = useScreenActor('withdrawal', logic);

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      const s = actor.getSnapshot().value;
      if (f.type === 'balance' && (s === 'editing' || s === 'locked')) send({ type: 'wd.refresh' }, { derived: true });
    });
    return () => sub.unsubscribe();
  }, [frames$, actor, send]);

  return [actor, send] as const;
}
