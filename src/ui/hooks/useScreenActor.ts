import { useActorRef } from '@xstate/react';
import { useCallback, useEffect } from 'react';
import type { ActorOptions, AnyStateMachine, EventFrom } from 'xstate';
import { useAppCore } from '../app/AppCoreProvider.tsx';

/** Sends an event to a screen actor; `derived` events (from frames, props, the URL) are not recorded. */
export type ScreenSend<M extends AnyStateMachine> = (event: EventFrom<M>, opts?: { derived?: boolean }) => void;

/**
 * `useActorRef` for a screen-owned machine, on the core's clock, with its UI intents in the
 * event log (src/core/screenActors.ts): the actor is registered under `name` while mounted, so a
 * browser replay can send it what the user did. Send UI intents with the returned `send`; pass
 * `{ derived: true }` for events the screen derives from data, which a replayed screen derives again.
 */
export function useScreenActor<M extends AnyStateMachine>(name: string, logic: M, options: Omit<ActorOptions<M>, 'clock'> = {}) {
  const core = useAppCore();
  const actor = useActorRef(logic, { ...options, clock: core.ports.clock } as ActorOptions<M>);
  useEffect(() => core.screens.register(name, actor as unknown as { send(e: { type: string }): void }), [core, name, actor]);
  const send = useCallback<ScreenSend<M>>(
    (event, opts) => {
      if (!opts?.derived) core.screens.onIntent?.(name, event as { type: string });
      actor.send(event);
    },
    [core, name, actor],
  );
  return [actor, send] as const;
}
