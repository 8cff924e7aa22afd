import { createActor } from 'xstate';
import type { Actor } from 'xstate';
import { distinctUntilChanged, filter, map, Observable, skip, Subject } from 'rxjs';
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
import type { Http } from '../ports/types.ts';
import { createMarketStreams, type MarketReducers, type MarketStreams } from './marketStreams.ts';
import { createUserStreams, type UserStreams } from './userStreams.ts';
import { createScreenMachines, type ScreenMachines, type ScreenSnapshot } from './screenMachines.ts';
import { createUiTimers, type UiTimers } from './timers.ts';
import { createLiveQueries, type LiveQueries } from './liveQuery.ts';
import { createPositionPrefs, type PositionPrefsStore } from './positionPrefs.ts';
import { createFavorites, type FavoritesStore } from './favorites.ts';
import { createDevicePrefs, type DevicePrefs } from './devicePrefs.ts';
import { createTradeLayout, type TradeLayoutStore } from './tradeLayout.ts';
import { createViewState, type ViewStateStore, type ViewValues } from './viewState.ts';
import { createPageWake, type PageWake } from './pageWake.ts';
import { createNotificationCenter, followNotificationReads, type NotificationCenter } from './notificationCenter.ts';
import { createTradingSocket, type TradingSocket } from './tradingSocket.ts';
import { createHeldOutputs } from './heldOutputs.ts';

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
  /** For one-off screen calls; goes through the (recorded) Http port, the trading writes over the user socket when it can (src/core/tradingSocket.ts). */
  api: ApiClient;
  /** The trading calls in flight over the user socket (the replay driver reads `settled`). */
  socketApi: Pick<TradingSocket, 'inFlight' | 'settled' | 'methodFor'>;
  log: EventLog;
  /** The ports the core actually uses (recording wrappers when recording is on). */
  ports: Ports;
  /** Toasts and navigations for the React shell to perform, in order (held until the shell subscribes: src/core/heldOutputs.ts). */
  outputs$: Observable<CoreOutput>;
  /** Parsed market socket frames (`{type, ...}`), synchronously as they arrive. */
  marketFrames$: Observable<InboundFrame>;
  /** Parsed user socket frames. */
  userFrames$: Observable<InboundFrame>;
  /** The mounted screens' actors as the replay reaches them, and the hook that records their intents (src/core/screenActors.ts). */
  screens: ScreenActors;
  /** Every stream of the market and of the user, per symbol / contract (src/core/marketStreams.ts, userStreams.ts). */
  streams: { market: MarketStreams; user: UserStreams; queries: LiveQueries; notifications: NotificationCenter };
  /** The lifecycle machines of the screens (order ticket, KYC, compensation, coupon): src/core/screenMachines.ts. */
  machines: ScreenMachines;
  /** Cosmetic UI time (carousel, countdowns) on the unrecorded clock: src/core/timers.ts. */
  timers: UiTimers;
  /** The user's close / close-all confirmations (src/core/positionPrefs.ts). */
  positionPrefs: PositionPrefsStore;
  /** The desktop trade screen's panel sizes per user (src/core/tradeLayout.ts). */
  tradeLayout: TradeLayoutStore;
  /** The user's favourite contracts (src/core/favorites.ts). */
  favorites: FavoritesStore;
  /** The last traded pair and the display currency kept on the device (src/core/devicePrefs.ts). */
  device: DevicePrefs;
  /** The core's clock now (virtual in a replay): what a screen stamps, e.g. a support bundle. */
  now(): number;
  /** A fresh random id from the core's Random port (recorded): client order ids. */
  newId(): string;
  /** View state as intents: tabs, filters, pages, chart settings, open dialogs (src/core/viewState.ts). */
  view: ViewStateStore;
  /** Page hidden / visible / online, reported by src/main.tsx: restarts stale sockets (src/core/pageWake.ts). */
  wake: PageWake;
  /** What replay hashes: every core actor's persisted snapshot, every stream's frame state and the engaged screen flows. */
  state(): CoreState;
  /** Invariant violations visible in the streams now. */
  violations(): string[];
  /** Stops every actor (closing sockets) and completes the streams. */
  stop(): void;
}

/** The hashable state of the core (see {@link AppCore.state}). */
export interface CoreState {
  session: unknown;
  market: unknown;
  user: unknown;
  streams: Record<string, unknown>;
  /** The view state, only once something was set (so logs without view intents hash as before). */
  view?: ViewValues;
  /**
   * The screen flows an intent reached (order ticket, KYC form, convert quote, …) by key, while their
   * actor lives: its state value and the context that is the flow's (src/core/screenMachines.ts).
   * Absent when none is engaged, so logs without screen intents hash as before.
   */
  screens?: Record<string, ScreenSnapshot>;
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
  /** Runs `fn` after the current synchronous work (topic batching, reloads); default queueMicrotask. */
  defer?: (fn: () => void) => void;
  /** Replaces market stream reducers (tests: a changed reducer must change the replay hash). */
  marketReducers?: Partial<MarketReducers>;
  marketUrl?: string;
  userUrl?: string;
}

/** `{ ...a, ...b, ... }` for plain objects (own enumerable keys, later values win, first position kept), without V8's slow multi-spread. */
function merged(...parts: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) for (const k of Object.keys(part)) out[k] = part[k];
  return out;
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

  const outputs$ = createHeldOutputs<CoreOutput>();
  const marketFrames$ = new Subject<InboundFrame>();
  const userFrames$ = new Subject<InboundFrame>();

  // NOTE: the api client needs the session actor (401 → session.unauthorized) and the session
  // needs the api client; the late binding is safe because no call happens before start().
  let session: Actor<SessionLogic> | null = null;
  // Every 200 answer is shown to the user streams (the account features' server truth).
  let user$: UserStreams | null = null;
  let notices: NotificationCenter | null = null;
  // Place, cancel, edit and close go over the user socket while it is open and announced them (issue 28).
  const socketApi = createTradingSocket({ clock, frames$: userFrames$ });
  const transport = socketApi.route(ports.http);
  const http: Http = {
    async request(req, signal) {
      const out = await transport.request(req, signal);
      if (out.kind === 'envelope' && out.envelope.code === 200) {
        user$?.observeAnswer(req.method, req.path, out.envelope.data);
        notices?.observeAnswer(req.method, req.path, out.envelope.data, req.body);
      }
      return out;
    },
  };
  const api = createApiClient({
    http,
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
  const user = createActor(provideSocket(socketApi.tap(ports.socket), clock, sinkFor('user', userFrames$)), {
    clock,
    input: { url: options.userUrl ?? USER_SOCKET_URL, kind: 'user', token: initialToken },
  });
  for (const [name, actor] of [
    ['market', market],
    ['user', user],
  ] as const) {
    subs.push(actor.on('socket.error', (e) => void log.append('socket.error', { socket: name, message: e.message })));
  }
  // The server closed the user socket with 4001 (token revoked or expired): the same 401 flow as an envelope 401.
  subs.push(user.on('socket.unauthorized', () => session?.send({ type: 'session.unauthorized' })));

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

  // An actor's subscribe() reports changes only: these start with the current value.
  const follow = <S, T>(actor: { getSnapshot(): S; subscribe(fn: (s: S) => void): { unsubscribe(): void } }, pick: (s: S) => T) =>
    new Observable<T>((sub) => {
      sub.next(pick(actor.getSnapshot()));
      const s = actor.subscribe((snap) => sub.next(pick(snap)));
      return () => s.unsubscribe();
    });
  const token$ = follow(sessionActor, (snap) => snap.context.token).pipe(distinctUntilChanged());
  const topics$ = follow(market, (snap) => Object.keys(snap.context.topics).filter((t) => (snap.context.topics[t] ?? 0) > 0)).pipe(
    distinctUntilChanged((a, b) => a.join() === b.join()),
  );
  // Every open of the market socket after its first one (the socket machine's `connected` going
  // false → true again): the market streams refetch the history they hold.
  const marketReconnected$ = follow(market, (snap) => snap.context.connected).pipe(
    distinctUntilChanged(),
    filter((up) => up),
    skip(1),
  );
  const marketStreams = createMarketStreams({
    frames$: marketFrames$,
    api,
    clock,
    log,
    socket: market,
    topics: topics$,
    defer: options.defer,
    reducers: options.marketReducers,
    reconnected$: marketReconnected$,
  });
  // Positions are valued at the mark of their symbol's ticker (issue 26: live uPnL / margin ratio).
  const mark$ = (symbol: string) =>
    marketStreams.ticker$(symbol).pipe(
      map((t) => t.ticker?.mark ?? null),
      distinctUntilChanged(),
    );
  const streams = {
    market: marketStreams,
    user: createUserStreams({ frames$: userFrames$, api, token$, defer: options.defer, mark$ }),
    queries: createLiveQueries({ api, userFrames$, defer: options.defer }),
    // The bell and its list (issue 26, Major 8): server truth from answers and `notification` frames; its reader loads it.
    notifications: createNotificationCenter({ api, frames$: userFrames$, token$, now: () => clock.now() }),
  };
  user$ = streams.user;
  notices = streams.notifications;
  const screens = createScreenActors();
  const userId$ = follow(sessionActor, (snap) => snap.context.userInfo?.id ?? null);
  const positionPrefs = createPositionPrefs({ storage: ports.storage, userId$ });
  const tradeLayout = createTradeLayout({ storage: ports.storage, userId$ });
  const favorites = createFavorites({ storage: ports.storage, userId$ });
  const view = createViewState();
  // Marking notices read is a view intent (recorded, replayed): the core makes the request.
  subs.push(followNotificationReads(view, streams.notifications));
  const machines = createScreenMachines({
    api,
    clock,
    userFrames$,
    screens,
    tradingApi: streams.user.tradingApi,
    positionPrefs,
    newId: () => ports.random.id(),
    defer: options.defer,
  });
  // An actor's snapshot is immutable: its persisted form is computed once per snapshot of the
  // actor and of every actor under it (cheap state() after every record for the replay inspector
  // and --diff). A child that moved on alone makes a new entry.
  const persistedCache = new WeakMap<object, { under: object[]; value: unknown }>();
  type Snapshotting = { getSnapshot(): unknown };
  const snapshotsUnder = (snap: unknown, out: object[]): object[] => {
    const children = (snap as { children?: Record<string, Snapshotting | undefined> } | null)?.children;
    if (children) {
      for (const child of Object.values(children)) {
        const s = child?.getSnapshot();
        if (typeof s === 'object' && s !== null) {
          out.push(s);
          snapshotsUnder(s, out);
        }
      }
    }
    return out;
  };
  const persisted = (a: { getSnapshot(): object; getPersistedSnapshot(): unknown }) => {
    const snap = a.getSnapshot();
    const under = snapshotsUnder(snap, []);
    const hit = persistedCache.get(snap);
    if (hit && hit.under.length === under.length && hit.under.every((s, i) => s === under[i])) return hit.value;
    const value = a.getPersistedSnapshot();
    persistedCache.set(snap, { under, value });
    return value;
  };

  return {
    session: sessionActor,
    market,
    user,
    api,
    socketApi,
    log,
    ports,
    outputs$: outputs$.observable,
    marketFrames$: marketFrames$.asObservable(),
    userFrames$: userFrames$.asObservable(),
    screens,
    streams,
    machines,
    timers: createUiTimers(rawPorts.clock),
    positionPrefs,
    tradeLayout,
    favorites,
    device: createDevicePrefs(ports.storage),
    now: () => clock.now(),
    newId: () => ports.random.id(),
    view,
    // `market.send` / `user.send` are looked up at call time: a recording core has wrapped them, so the restarts are logged as intents.
    wake: createPageWake({
      now: () => clock.now(),
      restart: () => {
        market.send({ type: 'socket.reconnectNow' });
        user.send({ type: 'socket.reconnectNow' });
      },
    }),
    state() {
      const m = streams.market.state();
      // The account books a screen holds (`balanceBook`, `positionBook`: the assets pages' and the
      // convert form's balances) are in the state only while a screen reads them, so they are left
      // out: the hash is a function of the log, not of when a screen mounted (docs/REPLAY.md, "What
      // the hash leaves out"). Their sources are hashed or checked: the frames in `balances` /
      // `positions`, the REST answer matched against the log by the replay ports.
      const { balanceBook: _balanceBook, positionBook: _positionBook, ...u } = streams.user.state();
      const rejected = (m.rejected as number) + (u.rejected as number);
      const views = view.all();
      // The notification centre once anything reached it (logs recorded without it hash as before);
      // its server truth only (no load status, no read time), which the headless replay rebuilds too.
      const held = streams.notifications.current();
      const extra = held === null ? {} : { notifications: { unread: held.unread, total: held.total, items: held.items.map((n) => [n.id, n.readAt !== null]) } };
      const flows = machines.state();
      // Copied key by key, not spread: V8 (Node 20) builds `{ ...m, ...u, rejected }` in about
      // 25 us, the copy in under 1 us, and the inspector takes a state after every record. The same
      // keys in the same order, the same values.
      const state: CoreState = {
        session: persisted(sessionActor),
        market: persisted(market),
        user: persisted(user),
        streams: merged(m, u, { rejected }, extra),
      };
      if (Object.keys(views).length > 0) state.view = views;
      if (Object.keys(flows).length > 0) state.screens = flows;
      return state;
    },
    violations: () => [...streams.market.violations(), ...streams.user.violations()],
    stop() {
      for (const s of subs) s.unsubscribe();
      machines.stop();
      socketApi.stop();
      positionPrefs.stop();
      tradeLayout.stop();
      favorites.stop();
      streams.market.stop();
      streams.user.stop();
      streams.notifications.stop();
      sessionActor.stop();
      market.stop();
      user.stop();
      outputs$.complete();
      marketFrames$.complete();
      userFrames$.complete();
    },
  };
}

