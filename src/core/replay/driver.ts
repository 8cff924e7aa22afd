import type { AnyActorRef } from 'xstate';
import { createAppCore, type AppCore, type AppCoreOptions, type CoreState } from '../createAppCore.ts';
import type { LogRecord } from '../../ports/eventLog.ts';
import { hashState } from '../../ports/stateHash.ts';
import { createReplayPorts, type Divergence, type ReplayPortsController } from '../../ports/replay.ts';
import type { ParsedLog } from './parse.ts';
import { DERIVED_EVENTS, INTENT_ACTORS, type IntentActor } from './record.ts';
import { SCREEN_ACTOR_PREFIX } from '../screenActors.ts';
import type { IntentEvent, ReplayScene } from '../screenMachines.ts';
import { standInSecrets } from '../../ports/standIns.ts';
import { isWellFormedIntent } from './intents.ts';
import { isViewValue, VIEW_ACTOR, VIEW_SET } from '../viewState.ts';
import { SEGMENT_KIND, splitSegments } from '../../ports/logSegments.ts';

/**
 * The replay driver (DESIGN §4): for each record in order, advance the VirtualClock to the
 * record's `t` (firing due timers: pings, reconnects), then deliver it: transport records to the
 * replay ports, `ui.intent` to its actor (a screen flow's actor built from the core's table when
 * no screen holds one), `ui.route` to the location. Everything runs through the
 * app's own core (createAppCore): its machines, its streams and their reducers, the book's resync
 * machine; the state hash is `core.state()`, the very state the screens read.
 *
 * Determinism: delivery is synchronous; only when a recorded HTTP answer resolves a promise (or
 * an intent may start one) does the driver yield one macrotask so the promise chain settles
 * before the next record, exactly once per such record. Nothing else is awaited.
 */

/** What gets hashed: every core actor's persisted snapshot and every stream's frame state (AppCore.state()). */
export type ReplayState = CoreState;

export interface Checkpoint {
  seq: number;
  t: number;
  hash: string;
  /** Hash of the actors only (session, market, user): what a support bundle's checkpoint pins. */
  actorsHash: string;
  state: ReplayState;
  /** Invariant violations seen at this checkpoint. */
  violations: string[];
}

export interface ReplayOptions {
  /** Extra core options (tests: `marketReducers` to prove the hash follows the core's reducers). */
  core?: Partial<AppCoreOptions>;
  /** Stop after the record with this seq. */
  until?: number;
  /** Take a checkpoint every N records (plus the final one). 0 = only the final one. */
  checkpointEvery?: number;
  /** Also take checkpoints after these seqs. */
  checkpointAt?: readonly number[];
  /** Keep the hash after every record (for --diff). */
  hashEveryRecord?: boolean;
  /** Called after each record is delivered (timeline printers, browsers stepping along). */
  onRecord?: (rec: LogRecord, core: AppCore) => void | Promise<void>;
  /** Yields to the host so pending promises settle; default: one macrotask. */
  flush?: () => Promise<void>;
}

export interface ReplayResult {
  /** Records delivered. */
  delivered: number;
  lastSeq: number;
  checkpoints: Checkpoint[];
  /** seq → hash after that record (only with hashEveryRecord). */
  hashes: { seq: number; kind: string; hash: string }[];
  final: Checkpoint;
  divergences: Divergence[];
  /**
   * Recorded requests (and storage writes) the replayed app never made: in headless replay the
   * screens' view reads (lists, charts, help pages), whose answers still reach the core's account
   * streams. The screen flows' own requests are made by their machines, headless too.
   */
  unissued: number;
  /** Of {@link unissued}, the requests that write (anything but a GET): a flow the replay did not drive. */
  unissuedWrites: number;
  /** Of {@link unissued}, the storage writes (a screen's own preference, such as the last trade pair). */
  unissuedStorage: number;
  /** Recorded screen intents no actor took (headless: the table could not build one; see ReplayHandle.screenMisses). */
  screenMisses: string[];
  /** `env` records seen (bundle metadata first). */
  env: Record<string, unknown>[];
  /** Results of `expect.book` records (market fixtures' published top of book). */
  bookChecks: { seq: number; ok: boolean; message: string }[];
  /** The hash in the bundle's checkpoint record, when the input was a support bundle. */
  bundleHash: string | null;
}

const defaultFlush = (): Promise<void> =>
  new Promise((resolve) => {
    const g = globalThis as { setImmediate?: (fn: () => void) => unknown; setTimeout: (fn: () => void, ms: number) => unknown };
    if (g.setImmediate) g.setImmediate(resolve);
    else g.setTimeout(resolve, 0);
  });

export interface ReplayHandle {
  core: AppCore;
  ports: ReplayPortsController;
  state(): ReplayState;
  /** `env` records met so far (bundle metadata first). */
  env: Record<string, unknown>[];
  bookChecks: { seq: number; ok: boolean; message: string }[];
  /** Screen intents no actor took (browser: their screen was not mounted; headless: the table could not build it). */
  screenMisses: string[];
  /**
   * Headless: builds the actor a recorded `screen:<name>` intent goes to when none lives (from the
   * core's table, src/core/screenMachines.ts). True when one was built: let its start-up requests
   * settle (one flush) before {@link deliver} sends it the intent.
   */
  prepare(rec: LogRecord): boolean;
  /**
   * Delivers one record (see {@link replayLog}); true when the host must let promises settle
   * before the next record. The clock must already be at the record's time.
   */
  deliver(rec: LogRecord): boolean;
  /** "No machine stuck": a socket waiting to reconnect must have a timer armed, and so on. */
  stuck(): string[];
}

export interface HandleHooks {
  /** Intents to leave out. */
  skipIntent?: (actor: IntentActor, event: { type: string }) => boolean;
  /**
   * 'log' (browser replay): the core's actors (session, market, user) get their intents from the
   * log only. What the mounted screens send them themselves (their readers' topic subscriptions, the
   * KYC screen's user-info refresh) is dropped: the recording logged every such send as a
   * `ui.intent` at the record it happened, and the replay delivers that one, so the state follows
   * the log and not when a screen mounted or ran an effect. Events the core derives itself
   * (`socket.setToken`, `session.unauthorized`, never logged) pass.
   */
  intents?: 'log' | 'all';
  /** Called on `ui.route` (the browser replay navigates the router). */
  onRoute?: (path: string) => void;
  /**
   * Where `screen:<name>` intents go. 'mounted' (browser replay): to the actor the mounted screen
   * holds. 'build' (headless, the default): to the live actor of that name, which the core builds
   * from its table when none lives ({@link ReplayHandle.prepare}). In both, a `ui.route` to another
   * path takes the flows out of the state (the user left their screen) and stops the built ones.
   */
  screens?: 'mounted' | 'build';
  /** Extra core options (tests inject a `defer`, or `marketReducers`). */
  core?: Partial<AppCoreOptions>;
  /** Where the virtual clock starts (Unix ms); default the log's `startedAt` (a later page load: its segment's start). */
  startAt?: number;
  /** The log is a page load the user reloaded after its last record ({@link LoadSegment.reloaded}, src/ports/replay.ts ReplayPortsOptions). */
  reloaded?: boolean;
}

/**
 * The page loads of a log (src/ports/logSegments.ts): each its own records, the virtual time its
 * replay starts at and the path it opened on. A log without `segment` records is one load.
 */
export interface LoadSegment {
  log: ParsedLog;
  startAt: number;
  path: string | null;
  /** A later load follows: the user reloaded this one after its last record. */
  reloaded: boolean;
}

export function segmentsOf(log: ParsedLog): LoadSegment[] {
  return splitSegments(log.records).map((records, i, all) => {
    const seg = records[0]?.kind === SEGMENT_KIND ? records[0] : undefined;
    // Where the reloaded page opened: its first route (as the browser replay starts a log), else the segment's path.
    const route = records.find((r) => r.kind === 'ui.route' && typeof r.path === 'string');
    const path = route ? String(route.path) : typeof seg?.path === 'string' ? seg.path : null;
    return {
      log: i === 0 ? { ...log, records } : { ...log, records, meta: [] },
      startAt: log.header.startedAt + (i === 0 ? 0 : (records[0]?.t ?? 0)),
      path: i === 0 ? null : path,
      reloaded: i < all.length - 1,
    };
  });
}

/** Builds the core on replay ports for `log` without delivering anything yet. */
export function createReplayHandle(log: ParsedLog, location: { path: string }, hooks: HandleHooks = {}): ReplayHandle {
  const ports = createReplayPorts(log.records, hooks.startAt ?? log.header.startedAt, { reloaded: hooks.reloaded });
  ports.setCurrentSeq(null);
  const core = createAppCore(ports.ports, { ...hooks.core, location: () => location.path, record: false });
  let delivering = false;
  if (hooks.intents === 'log') {
    for (const name of INTENT_ACTORS) {
      const actor = core[name] as { send(e: { type: string }): void };
      const bound = actor.send.bind(actor);
      actor.send = (event: { type: string }) => {
        if (delivering || DERIVED_EVENTS.has(event.type)) bound(event);
      };
    }
  }
  const env: Record<string, unknown>[] = log.meta.filter((m) => m.kind === 'env');
  const bookChecks: ReplayHandle['bookChecks'] = [];
  const requests = new Map<number, LogRecord>();
  const screenMisses: string[] = [];
  // A trading call over the user socket settles when its recorded answer frame arrives, or its
  // socket closes (src/core/tradingSocket.ts): like an HTTP answer, the host must then let the
  // promise chain run before the next record. (One its timeout settled as the clock moved is
  // seen at the next socket record.)
  let settledSeen = core.socketApi.settled();
  const socketSettled = (): boolean => {
    const n = core.socketApi.settled();
    const moved = n !== settledSeen;
    settledSeen = n;
    return moved;
  };
  const build = (hooks.screens ?? 'build') === 'build';
  // The latest recorded 200 answer per `METHOD path`: what a screen read before the user acted (the ticket's instrument rules).
  const answers = new Map<string, unknown>();
  const scene: ReplayScene = { get path() { return location.path; }, answer: (method, path) => answers.get(`${method} ${path}`) };
  const pathname = (p: string) => p.split(/[?#]/)[0] ?? p;
  return {
    core,
    screenMisses,
    ports,
    env,
    bookChecks,
    prepare(rec) {
      const intent = screenIntentOf(rec);
      if (!build || !intent) return false;
      ports.setCurrentSeq(rec.seq);
      return core.machines.createFor(intent.name, intent.event, scene);
    },
    deliver(rec) {
      switch (rec.kind) {
        case 'ui.intent': {
          if (typeof rec.actor === 'string' && rec.actor.startsWith(SCREEN_ACTOR_PREFIX)) {
            const intent = screenIntentOf(rec);
            if (!intent) return false;
            ports.setCurrentSeq(rec.seq);
            // A secret the user typed is a placeholder in the log: the replayed form gets its stand-in (src/ports/standIns.ts).
            if (!core.machines.intent(intent.name, standInSecrets(intent.event))) {
              screenMisses.push(build ? `@${rec.seq} ${rec.actor} has no actor for ${intent.event.type} (the core's table could not build one at ${location.path})` : `@${rec.seq} ${rec.actor} is not on screen for ${intent.event.type}`);
              return false;
            }
            return true;
          }
          if (rec.actor === VIEW_ACTOR) {
            const ev = rec.event as { type?: unknown; key?: unknown; value?: unknown } | null | undefined;
            if (typeof ev !== 'object' || ev === null || ev.type !== VIEW_SET || typeof ev.key !== 'string' || !isViewValue(ev.value)) return false;
            core.view.apply(ev.key, ev.value);
            return true;
          }
          const name = rec.actor as IntentActor;
          const event = rec.event as { type?: unknown } | undefined;
          if (!INTENT_ACTORS.includes(name) || !isWellFormedIntent(name, event)) return false;
          const ev = event as { type: string };
          if (hooks.skipIntent?.(name, ev)) return false;
          ports.setCurrentSeq(rec.seq);
          delivering = true;
          try {
            (core[name] as AnyActorRef).send(ev);
          } finally {
            delivering = false;
          }
          return true;
        }
        case 'ui.route':
          if (typeof rec.path === 'string') {
            if (pathname(rec.path) !== pathname(location.path)) core.machines.leave();
            // What the screen of this route asks is labelled with it (and, in a load the user reloaded, may be cut by the reload).
            ports.setCurrentSeq(rec.seq);
            location.path = rec.path;
            hooks.onRoute?.(rec.path);
          }
          return false;
        case 'env':
          env.push(rec);
          return false;
        case SEGMENT_KIND:
          // A page load's start: the host built this handle for it (a fresh core, segmentsOf).
          return false;
        case 'expect.book':
          bookChecks.push(checkBook(rec, core));
          return false;
        case 'book.sync':
          // The core's resync machine writes these; the replayed core re-derives them.
          return false;
        case 'http.request':
          requests.set(Number(rec.id), rec);
          return ports.deliver(rec);
        case 'http.response': {
          const settle = ports.deliver(rec);
          const req = requests.get(Number(rec.id));
          const envl = rec.envelope as { code?: unknown; data?: unknown } | undefined;
          // A request the replayed app did not make (a screen's, headless): its answer still
          // reaches the account streams, as it did on the user's screen. An issued one already
          // went through the core's Http tap.
          if (req && envl && envl.code === 200) answers.set(`${String(req.method)} ${String(req.path)}`, envl.data);
          if (req && envl && envl.code === 200 && !ports.isIssued(req)) {
            core.streams.user.observeAnswer(String(req.method), String(req.path), envl.data);
            core.streams.notifications.observeAnswer(String(req.method), String(req.path), envl.data, req.body);
          }
          return settle;
        }
        default: {
          const settle = ports.deliver(rec);
          return socketSettled() || settle;
        }
      }
    },
    state: () => core.state(),
    stuck() {
      const out: string[] = [];
      for (const name of ['market', 'user'] as const) {
        const snap = core[name].getSnapshot();
        if (snap.status !== 'active') out.push(`${name} socket actor is ${snap.status}`);
        if (snap.matches('reconnecting') && ports.clock.pending() === 0) out.push(`${name} socket is reconnecting with no timer armed`);
      }
      if (core.session.getSnapshot().status !== 'active') out.push(`session actor is ${core.session.getSnapshot().status}`);
      return out;
    },
  };
}

/**
 * Replays `log` headless; see {@link ReplayOptions}. Never throws for log content. A log of several
 * page loads (`segment` records, src/ports/logSegments.ts) replays each load like the reload it
 * was: the core of the load before stops, a fresh core on fresh replay ports over that load's
 * records starts on the same virtual clock at the load's start, and the hash after each record is
 * the running load's state.
 */
export async function replayLog(log: ParsedLog, options: ReplayOptions = {}): Promise<ReplayResult> {
  const flush = options.flush ?? defaultFlush;
  const location = { path: '/' };
  const checkpoints: Checkpoint[] = [];
  const hashes: ReplayResult['hashes'] = [];
  const at = new Set(options.checkpointAt ?? []);
  const every = options.checkpointEvery ?? 0;
  const divergences: Divergence[] = [];
  const screenMisses: string[] = [];
  const env: Record<string, unknown>[] = [];
  const bookChecks: ReplayResult['bookChecks'] = [];
  let unissued: LogRecord[] = [];
  let delivered = 0;
  let lastSeq = 0;
  let lastT = 0;
  let final: Checkpoint | null = null;
  let stopped = false;

  const segments = segmentsOf(log);
  for (const [i, seg] of segments.entries()) {
    if (stopped) break;
    if (seg.path !== null) location.path = seg.path;
    const h = createReplayHandle(seg.log, location, { core: options.core, startAt: seg.startAt, reloaded: seg.reloaded });
    const { core, ports } = h;
    // Let the start-up requests (a stored token fetches user info) reach the ports before the load's first record.
    await flush();
    for (const rec of seg.log.records) {
      if (options.until !== undefined && rec.seq > options.until) {
        stopped = true;
        break;
      }
      const target = log.header.startedAt + rec.t;
      if (target > ports.clock.now()) ports.clock.set(target);
      if (h.prepare(rec)) await flush();
      const settle = h.deliver(rec);
      if (settle) await flush();
      delivered += 1;
      lastSeq = rec.seq;
      lastT = rec.t;
      if (options.hashEveryRecord) hashes.push({ seq: rec.seq, kind: rec.kind, hash: hashState(h.state()) });
      if ((every > 0 && delivered % every === 0) || at.has(rec.seq)) checkpoints.push(takeCheckpoint(h, rec.seq, rec.t));
      if (options.onRecord) await options.onRecord(rec, core);
    }
    ports.finish();
    if (stopped || i === segments.length - 1) final = takeCheckpoint(h, lastSeq, lastT);
    // A request a screen made before its flow's actor was built headless (the KYC form's status read) was made by it later.
    unissued = unissued.concat(ports.unissued.filter((r) => r.kind !== 'http.request' || !ports.isIssued(r)));
    divergences.push(...ports.divergences);
    screenMisses.push(...h.screenMisses);
    env.push(...h.env);
    bookChecks.push(...h.bookChecks);
    core.stop();
  }
  const last = final as Checkpoint;
  if (checkpoints[checkpoints.length - 1]?.seq !== lastSeq) checkpoints.push(last);
  const bundleCp = log.meta.find((m) => m.kind === 'checkpoint');
  return {
    delivered,
    lastSeq,
    checkpoints,
    hashes,
    final: last,
    divergences,
    unissued: unissued.length,
    unissuedWrites: unissued.filter((r) => r.kind === 'http.request' && r.method !== 'GET').length,
    unissuedStorage: unissued.filter((r) => r.kind !== 'http.request').length,
    screenMisses,
    env,
    bookChecks,
    bundleHash: bundleCp && typeof bundleCp.hash === 'string' ? bundleCp.hash : null,
  };
}

/** A recorded `screen:<name>` intent with a well-formed event, or null. */
function screenIntentOf(rec: LogRecord): { name: string; event: IntentEvent } | null {
  if (rec.kind !== 'ui.intent' || typeof rec.actor !== 'string' || !rec.actor.startsWith(SCREEN_ACTOR_PREFIX)) return null;
  const ev = rec.event as { type?: unknown } | null | undefined;
  if (typeof ev !== 'object' || ev === null || Array.isArray(ev) || typeof ev.type !== 'string') return null;
  return { name: rec.actor.slice(SCREEN_ACTOR_PREFIX.length), event: ev as IntentEvent };
}

/** Hashes the handle's state now and lists the invariant violations. */
export function takeCheckpoint(h: ReplayHandle, seq: number, t: number): Checkpoint {
  const state = h.state();
  const actorsHash = hashState({ session: state.session, market: state.market, user: state.user });
  return { seq, t, hash: hashState(state), actorsHash, state, violations: [...h.core.violations(), ...h.stuck()] };
}

function checkBook(rec: LogRecord, core: AppCore): { seq: number; ok: boolean; message: string } {
  const c = rec.check as Partial<{ symbol: unknown; lastSeq: unknown; bestBid: unknown; bestAsk: unknown }> | null | undefined;
  const pair = (v: unknown): v is [number, number] => Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
  if (!c || typeof c !== 'object' || typeof c.symbol !== 'string' || typeof c.lastSeq !== 'number' || !pair(c.bestBid) || !pair(c.bestAsk)) {
    return { seq: rec.seq, ok: false, message: `malformed expect.book record at seq ${rec.seq}` };
  }
  const check = { symbol: c.symbol, lastSeq: c.lastSeq, bestBid: c.bestBid, bestAsk: c.bestAsk };
  const book = core.streams.market.book(check.symbol);
  if (!book) return { seq: rec.seq, ok: false, message: `no book for ${check.symbol}` };
  const bids = book.bids.length > 0 ? [book.bids.data[0], book.bids.data[1]] : null;
  const asks = book.asks.length > 0 ? [book.asks.data[0], book.asks.data[1]] : null;
  const ok = book.status === 'live' && book.seq === check.lastSeq && bids?.[0] === check.bestBid[0] && bids[1] === check.bestBid[1] && asks?.[0] === check.bestAsk[0] && asks[1] === check.bestAsk[1];
  return { seq: rec.seq, ok, message: ok ? `${check.symbol} top of book matches at ${check.lastSeq}` : `${check.symbol} at ${check.lastSeq}: expected ${JSON.stringify([check.bestBid, check.bestAsk])}, got ${book.status} seq ${book.seq} ${JSON.stringify([bids, asks])}` };
}
