import { useScreenActor } from '../../hooks/useScreenActor.ts';

/** The convert screen's actor (convertMachine), owned by the core (src/core/screenMachines.ts); form edits are recorded intents. */
export function useConvertActor() {
  return useScreenActor({ name: 'convert' });
}
