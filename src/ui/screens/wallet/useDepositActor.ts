import { useScreenActor } from '../../hooks/useScreenActor.ts';

/** The deposit screen's actor (depositMachine), owned by the core (src/core/screenMachines.ts); picks are recorded intents. */
export function useDepositActor() {
  return useScreenActor({ name: 'deposit' });
}
