import { use, useCallback, useEffect, useState } from 'react';
import type { AnyStateMachine, EventFrom } from 'xstate';
import { loadScreenMachines, type ActorFor, type MachineRequest } from '../../core/screenMachines.ts';
import { useAppCore } from '../app/AppCoreProvider.tsx';

/** Sends an event to a screen's actor; `derived` events (from props, the URL) are not recorded. */
export type ScreenSend<M extends AnyStateMachine> = (event: EventFrom<M>, opts?: { derived?: boolean }) => void;

type LogicOf<R extends MachineRequest> = ActorFor<R>['logic'];

/**
 * The core-owned actor of a screen's lifecycle machine (src/core/screenMachines.ts): the core
 * builds, starts, feeds (user-socket frames) and stops it; this hook holds it while the screen is
 * mounted and returns a `send` that records UI intents (`ui.intent {actor: 'screen:<name>'}`) so a
 * browser replay can send the actor what the user did. Pass `{ derived: true }` for events the
 * screen derives from data, which a replayed screen derives again.
 *
 * The production build loads a machine's row with its screen (src/ui/app/screens.ts preloads the
 * rows of a route); a row still loading suspends the component until it is here (no render
 * without its actor), which an already loaded row never does.
 */
export function useScreenActor<R extends MachineRequest>(req: R): readonly [ActorFor<R>, ScreenSend<LogicOf<R>>] {
  const core = useAppCore();
  use(loadScreenMachines([req.name]));
  const [actor, setActor] = useState(() => core.machines.get(req));
  useEffect(() => {
    // A screen kept across its actor's end (it was released and stopped meanwhile) asks again.
    if ((actor as { getSnapshot(): { status: string } }).getSnapshot().status !== 'active') {
      setActor(core.machines.get(req));
      return undefined;
    }
    return core.machines.retain(req, actor);
    // NOTE: the request is read once per actor; a new request (another pair) is a new component (keyed).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [core, actor]);
  const name = req.name;
  const send = useCallback<ScreenSend<LogicOf<R>>>(
    (event, opts) => {
      if (!opts?.derived) {
        core.screens.onIntent?.(name, event as { type: string });
        core.machines.engage(actor);
      }
      (actor as { send(e: unknown): void }).send(event);
    },
    [core, name, actor],
  );
  return [actor, send] as const;
}
