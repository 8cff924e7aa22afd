import { createActor, SimulatedClock } from 'xstate';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import type { InboundFrame, SocketKind } from '../../../src/machines/socketMachine.ts';
import { provideSocket } from '../../../src/machines/socketMachine.ts';
import { createScriptedSocketFactory } from '../../../src/ports/fakes.ts';

/** A socket actor on a SimulatedClock with a scripted factory; shared by unit, model and property tests. */
export function socketHarness(
  kind: SocketKind = 'market',
  token: string | null = null,
  startAt = 1_700_000_000_000,
  clockKind: 'simulated' | 'virtual' = 'simulated',
) {
  const clock = clockKind === 'virtual' ? new VirtualClock(startAt) : new SimulatedClock();
  if (clock instanceof SimulatedClock) clock.set(startAt);
  const factory = createScriptedSocketFactory();
  const frames: InboundFrame[] = [];
  const errors: string[] = [];
  /** How many times the machine emitted `socket.unauthorized` (close 4001 on the user socket). */
  const unauthorized = { count: 0 };
  const actor = createActor(provideSocket(factory, clock), { clock, input: { url: `/api/ws/${kind}`, kind, token } });
  actor.on('frame', (e) => frames.push(e.frame));
  actor.on('socket.error', (e) => errors.push(e.message));
  actor.on('socket.unauthorized', () => void (unauthorized.count += 1));
  actor.start();
  const state = () => {
    const v = actor.getSnapshot().value;
    if (typeof v === 'string') return v;
    return 'live' in v ? (typeof v.live === 'string' ? v.live : Object.keys(v.live)[0]) : Object.keys(v)[0];
  };
  const sentOf = (i: number) => (factory.sockets[i]?.sent ?? []).map((s) => JSON.parse(s) as Record<string, unknown>);
  return { clock, factory, actor, frames, errors, unauthorized, state, sentOf };
}
