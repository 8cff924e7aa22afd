import { useScreenActor } from '../../hooks/useScreenActor.ts';

/**
 * The withdrawal screen's actor (withdrawalMachine), owned by the core (src/core/screenMachines.ts:
 * its requests, and `balance` frames re-reading the form's numbers); form edits are recorded intents.
 */
export function useWithdrawalActor() {
  return useScreenActor({ name: 'withdrawal' });
}
