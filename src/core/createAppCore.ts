import { createActor } from 'xstate';
import type { Actor } from 'xstate';
import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import { createApiClient } from '../api/client.ts';
import type { CoreOutput, SessionLogic } from '../machines/sessionMachine.ts';
import { SESSION_TOKEN_KEY, provideSession } from '../machines/sessionMachine.ts';
import type { InboundFrame, SocketLogic } from '../machines/socketMachine.ts';
import { provideSocket } from '../machines/socketMachine.ts';
import { createScreenActors, type ScreenActors } from './screenActors.ts';
import type { Ports } from '../ports/types.ts';
import type { EventLog } from '../ports/eventLog.ts';
import { createEventLog } from '../ports/eventLog.ts';
import { createRecordingPorts } from '../ports/recording.ts';

export const MARKET_SOCKET_URL = '/api/ws/market';
export const USER_SOCKET_URL = '/api/ws/user';

/**
 * Everything with behaviour, built from ports and runnable headless (Node tests, replay) as well
 * as in the browser. React only reads actors with selectors and performs `outputs$`.
 */
export interface AppCore {
  session: Actor<SessionLogic>;
  market: Actor<SocketLogic>;
  user: Actor<SocketLogic>;
  /** For one-off screen calls; goes through the (recorded) Http port. */
  api: ApiClient;
  log: EventLog;
  /** The ports the core actually uses (recording wrappers when recording is on). */
  ports: Ports;
  /** Toasts and navigations for the React shell to perform, in order. */
  outputs$: Observable<CoreOutput>;
  /** Parsed market socket frames (`{type, ...}`), synchronously as they arrive. */
  marketFrames$: Observable<InboundFrame>;
  /** Parsed user socket frames. */
  userFrames$: Observable<InboundFrame>;
  /** The mounted screens' own actors and the hook that records their intents (src/core/screenActors.ts). */
  screens: ScreenActors;
  /** Stops every actor (closing sockets) and completes the streams. */
  stop(): void;
}

export interface AppCoreOptions {
  /** Current app path + search, for `/login?redirect=...`. */
  location: () => string;
  /** Use this log instead of a new one (e.g. a log shared with a recorder UI). */
  log?: EventLog;
  /** Wrap the ports in recording adapters that append to the log (default true). */
  record?: boolean;
  /** Ring budget of a new log in bytes. */
  logBytes?: number;
  marketUrl?: string;
  userUrl?: string;
}

/**
 * Builds and starts the core: session actor, market socket (connects now), user socket (connects
 * while the session holds a token), the api client and the outputs channel.
 * NOTE: the SAME clock object (`ports.clock`, or its recording wrapper which delegates to it) drives
 * the actors' delays and the ports, so a SimulatedClock in tests/replay controls everything.
 */
export function createAppCore(rawPorts: Ports, options: AppCoreOptions): AppCore {
  const log = options.log ?? createEventLog({ now: () => rawPorts.clock.now(), maxBytes: options.logBytes });
  const ports = options.record === false ? rawPorts : createRecordingPorts(rawPorts, log);
  const { clock } = ports;

  const outputs$ = new Subject<CoreOutput>();
  const marketFrames$ = new Subject<InboundFrame>();
  const userFrames$ = new Subject<InboundFrame>();

  // NOTE: the api client needs the session actor (401 → session.unauthorized) and the session
  // needs the api client; the late binding is safe because no call happens before start().
  let session: Actor<SessionLogic> | null = null;
  const api = createApiClient({
    http: ports.http,
    onUnauthorized: () => session?.send({ type: 'session.unauthorized' }),
    onNetworkError: (msg) => outputs$.next({ type: 'toast', level: 'error', msg }),
  });

  const initialToken = ports.storage.get(SESSION_TOKEN_KEY);
  const sessionActor = createActor(provideSession({ api, storage: ports.storage, location: options.location }), {
    clock,
    input: { token: initialToken },
  });
  session = sessionActor;
  const subs: { unsubscribe(): void }[] = [];
  subs.push(sessionActor.on('*', (o) => outputs$.next(o)));

  // Frames go from each connection straight to its Subject (see provideSocket); the machines see
  // the sockets' lifecycle. A bad frame is logged, never delivered.
  const sinkFor = (name: 'market' | 'user', frames$: Subject<InboundFrame>) => ({
    frame: (f: InboundFrame) => frames$.next(f),
    badFrame: (data: string) => void log.append('socket.badFrame', { socket: name, length: data.length }),
  });
  const market = createActor(provideSocket(ports.socket, clock, sinkFor('market', marketFrames$)), {
    clock,
    input: { url: options.marketUrl ?? MARKET_SOCKET_URL, kind: 'market' },
  });
  const user = createActor(provideSocket(ports.socket, clock, sinkFor('user', userFrames$)), {
    clock,
    input: { url: options.userUrl ?? USER_SOCKET_URL, kind: 'user', token: initialToken },
  });
  for (const [name, actor] of [
    ['market', market],
    ['user', user],
  ] as const) {
    subs.push(actor.on('socket.error', (e) => void log.append('socket.error', { socket: name, message: e.message })));
  }

  sessionActor.start();
  market.start();
  user.start();

  // The user socket follows the session token: start on login, stop (no reconnect) on logout.
  let lastToken = sessionActor.getSnapshot().context.token;
  subs.push(
    sessionActor.subscribe((snap) => {
      const token = snap.context.token;
      if (token === lastToken) return;
      lastToken = token;
      user.send({ type: 'socket.setToken', token });
    }),
  );

  return {
    session: sessionActor,
    market,
    user,
    api,
    log,
    ports,
    outputs$: outputs$.asObservable(),
    marketFrames$: marketFrames$.asObservable(),
    userFrames$: userFrames$.asObservable(),
    screens: createScreenActors(),
    stop() {
      for (const s of subs) s.unsubscribe();
      sessionActor.stop();
      market.stop();
      user.stop();
      outputs$.complete();
      marketFrames$.complete();
      userFrames$.complete();
    },
  };
}

