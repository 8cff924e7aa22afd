import { createActor, type Actor, type AnyActorLogic } from 'xstate';
import type { InboundFrame } from '../machines/socketMachine.ts';
import { describeBlobs } from './screenActors.ts';
import type { IntentEvent, ReplayScene, ScreenMachineRow, ScreenMachinesDeps } from './screenRows/row.ts';

export { tradePathOf, type IntentEvent, type ReplayScene, type ScreenMachinesDeps } from './screenRows/row.ts';

/**
 * The lifecycle machines of the account, trade and money screens (order ticket, KYC form,
 * compensation dialog, coupon merge, deposit address, withdrawal, address book, convert quote), built, started,
 * fed and stopped by the core. A screen asks for its actor
 * with {@link ScreenMachines.get} and holds it with {@link ScreenMachines.retain} while mounted
 * (src/ui/hooks/useScreenActor.ts); the core:
 * - provides each machine's requests through the core's recorded ApiClient,
 * - sends it the user-socket frames it follows (`kyc.frame`, `comp.frame`, `voucher.frame`),
 * - registers it in `core.screens` under its name, so a replay delivers the recorded
 *   `screen:<name>` intents to it; a headless replay (no screen) has the core build it from its row
 *   at the first recorded intent ({@link ScreenMachines.createFor}: the row's `fromIntent` derives
 *   the request from the intent, the replayed path and the recorded answers),
 * - puts the snapshot of every actor an intent reached in `core.state().screens` (value and the
 *   flow's own context, JSON-stable): the replay hash, the checkpoints, `--diff` and the inspector
 *   see the flows; an actor no intent reached yet is left out, so the hash does not depend on when
 *   a screen mounted,
 * - loads its row with the screen: each row's machine (with its protocol schemas and validators)
 *   is its own module (src/core/screenRows/), imported by {@link loadScreenMachines}; a screen's
 *   route loads its rows before it renders (src/ui/app/screens.ts) and {@link useScreenActor}
 *   waits for a row not loaded yet, so `get` is synchronous as before. Outside the production
 *   browser build (Node: headless replay, the CLI, tests, benches; the dev server) every row is
 *   loaded before this module's importers run, so a replay builds any row at the intent it meets,
 *   exactly as when the table was one module,
 * - stops it when its last holder leaves (after the current synchronous run, so React's
 *   StrictMode unmount-and-remount keeps the same actor). `get` returns the live actor of the
 *   same request, so a render React runs twice does not start two.
 */

/**
 * Every screen machine, declared once: a new flow is one row (a module in src/core/screenRows/).
 * The name doubles as the `screen:<name>` intent actor of the event log.
 */
const SCREEN_MACHINES = {
  kyc: () => import('./screenRows/kyc.ts').then((m) => m.kyc),
  compensation: () => import('./screenRows/compensation.ts').then((m) => m.compensation),
  coupon: () => import('./screenRows/coupon.ts').then((m) => m.coupon),
  deposit: () => import('./screenRows/deposit.ts').then((m) => m.deposit),
  withdrawal: () => import('./screenRows/withdrawal.ts').then((m) => m.withdrawal),
  addressBook: () => import('./screenRows/withdrawal.ts').then((m) => m.addressBook),
  convert: () => import('./screenRows/convert.ts').then((m) => m.convert),
  copyFollow: () => import('./screenRows/copy.ts').then((m) => m.copyFollow),
  copyUnfollow: () => import('./screenRows/copy.ts').then((m) => m.copyUnfollow),
  copyApply: () => import('./screenRows/copy.ts').then((m) => m.copyApply),
  close: () => import('./screenRows/trade.ts').then((m) => m.close),
  tpsl: () => import('./screenRows/trade.ts').then((m) => m.tpsl),
  order: () => import('./screenRows/trade.ts').then((m) => m.order),
};

type Loaders = typeof SCREEN_MACHINES;
/** A row's name: the `screen:<name>` intent actor. */
export type ScreenMachineName = keyof Loaders;
type Table = { [N in ScreenMachineName]: Awaited<ReturnType<Loaders[N]>> };
type AnyRow = ScreenMachineRow<AnyActorLogic, object>;

/** A promise React's `use` reads without suspending once it settled (its `status` / `value` fields). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** The rows loaded so far (module-wide: a row is code, the same for every core). */
const loadedRows = new Map<ScreenMachineName, AnyRow>();
const loading = new Map<ScreenMachineName, Tracked<void>>();

function loadRow(name: ScreenMachineName): Tracked<void> {
  const hit = loading.get(name);
  if (hit) return hit;
  const p: Tracked<void> = (SCREEN_MACHINES[name]() as Promise<unknown>).then((r) => {
    loadedRows.set(name, r as AnyRow);
    p.status = 'fulfilled';
  });
  p.status = 'pending';
  // a failed load (network) is tried again by the next caller
  p.catch((e: unknown) => {
    p.status = 'rejected';
    p.reason = e;
    loading.delete(name);
  });
  loading.set(name, p);
  return p;
}

/**
 * Loads the rows `names` (every row when absent): resolved once each can be built. The promise
 * carries React's `status` fields, so `use()` of an already loaded row does not suspend.
 */
export function loadScreenMachines(names: readonly ScreenMachineName[] = Object.keys(SCREEN_MACHINES) as ScreenMachineName[]): Promise<void> {
  const parts = names.map(loadRow);
  // one row: its own cached promise (React's `use` wants the same promise on every render)
  if (parts.length === 1 && parts[0]) return parts[0];
  if (parts.every((p) => p.status === 'fulfilled')) return Object.assign(Promise.resolve(), { status: 'fulfilled' as const });
  const all: Tracked<void> = Promise.all(parts).then(() => {
    all.status = 'fulfilled';
  });
  all.status = 'pending';
  all.catch(() => {});
  return all;
}

/** True when `name`'s row is loaded (`get` builds it synchronously). */
export const isScreenMachineLoaded = (name: ScreenMachineName): boolean => loadedRows.has(name);

// Node (headless replay, the CLI, tests, benches) and the dev server: every row before any importer
// runs, so nothing there waits for a row. Only the production browser build loads rows with screens.
if (!import.meta.env?.PROD) await loadScreenMachines();

type Name = ScreenMachineName;
type RowRequest<N extends Name> = Table[N] extends ScreenMachineRow<AnyActorLogic, infer R> ? (unknown extends R ? object : R) : never;

/** What a screen asks for: a row's name, with the contract (and the ticket's input) for the trade flows. */
export type MachineRequest = { [N in Name]: { name: N } & RowRequest<N> }[Name];
/** The actor a request gets. */
export type ActorFor<R extends MachineRequest> = Actor<ReturnType<Table[R['name']]['logic']>>;

/** A screen actor in the core's state: its state value and the context that is the flow's own (JSON-stable). */
export interface ScreenSnapshot {
  value: unknown;
  context: unknown;
}

export interface ScreenMachines {
  /** The live actor of `req.name`, created and started now if there is none. */
  get<R extends MachineRequest>(req: R): ActorFor<R>;
  /** Holds the actor while a screen shows it; the returned release lets it stop with its last holder. */
  retain(req: MachineRequest, actor: unknown): () => void;
  /** The live actors by key (tests read them). */
  live(): ReadonlyMap<string, Actor<AnyActorLogic>>;
  /**
   * Counts a UI intent to `actor` (the screen's send): from then on the actor's snapshot is in
   * {@link state}. An actor no intent reached yet is left out, so the state does not depend on when
   * a screen mounted (a browser replay mounts it before the first intent, a headless one builds it at
   * that intent).
   */
  engage(actor: unknown): void;
  /** Sends a replayed intent to the actor registered under `name` (engaging it); false when none lives. */
  intent(name: string, event: { type: string }): boolean;
  /**
   * Headless replay: builds `name`'s actor from the table for a recorded intent when none lives (the
   * row's {@link ScreenMachineRow.fromIntent} request). True when one was built (let its start-up
   * requests settle before sending the intent); false when one lives or the row cannot build it.
   */
  createFor(name: string, event: IntentEvent, scene: ReplayScene): boolean;
  /**
   * The replayed user went to another path: every flow leaves the state until an intent reaches it
   * again, and the actors {@link createFor} built stop (the unmounted screen stops the ones it held a
   * moment later, on the browser's time: the state does not wait for it).
   */
  leave(): void;
  /** The engaged live actors' snapshots by key: what `core.state().screens` holds. */
  state(): Record<string, ScreenSnapshot>;
  stop(): void;
}

/** True for a table row's name (a recorded `screen:<name>` is external data). */
export const isScreenMachineName = (name: string): name is Name => Object.prototype.hasOwnProperty.call(SCREEN_MACHINES, name);

/**
 * A context as JSON-stable data: functions, actor references and undefined are dropped, a Blob or
 * File becomes its description (as the log records it), Maps and Sets become entries, bigints strings.
 */
export function jsonStable(v: unknown): unknown {
  switch (typeof v) {
    case 'function':
    case 'undefined':
    case 'symbol':
      return undefined;
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'object': {
      if (v === null) return null;
      if (typeof Blob !== 'undefined' && v instanceof Blob) return describeBlobs(v);
      if (Array.isArray(v)) return v.map((x) => jsonStable(x) ?? null);
      if (v instanceof Map) return jsonStable([...v.entries()]);
      if (v instanceof Set) return jsonStable([...v.values()]);
      const o = v as Record<string, unknown>;
      // An actor reference (a spawned or invoked child) is its own snapshot's business, not this context's.
      if (typeof o.send === 'function' && typeof o.getSnapshot === 'function') return undefined;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(o)) {
        const j = jsonStable(x);
        if (j !== undefined) out[k] = j;
      }
      return out;
    }
    default:
      return v;
  }
}

/** A request's row, seen through its own request type (the one place the table is read by name). */
function rowOf(req: MachineRequest): ScreenMachineRow<AnyActorLogic, MachineRequest> {
  const r = loadedRows.get(req.name);
  // a screen waits for its rows (useScreenActor, the route's loader): reaching here is a bug
  if (!r) throw new Error(`screen machine '${req.name}' is not loaded yet (loadScreenMachines)`);
  return r as ScreenMachineRow<AnyActorLogic, MachineRequest>;
}

const keyOf = (req: MachineRequest): string => rowOf(req).key?.(req) ?? req.name;

interface Entry {
  actor: Actor<AnyActorLogic>;
  row: ScreenMachineRow<AnyActorLogic, MachineRequest>;
  holders: number;
  stopQueued: boolean;
  /** An intent reached it: its snapshot is in the state. */
  engaged: boolean;
  /** Built by a headless replay for a recorded intent (no screen holds it). */
  replayed: boolean;
  cleanup: () => void;
}

export function createScreenMachines(deps: ScreenMachinesDeps): ScreenMachines {
  const entries = new Map<string, Entry>();
  const defer = deps.defer ?? ((fn: () => void) => queueMicrotask(fn));

  const stopEntry = (name: string, e: Entry) => {
    e.cleanup();
    e.actor.stop();
    if (entries.get(name) === e) entries.delete(name);
  };

  const start = (req: MachineRequest): Entry => {
    const r = rowOf(req);
    const options = r.input ? { clock: deps.clock, input: r.input(deps, req) } : { clock: deps.clock };
    const actor: Actor<AnyActorLogic> = createActor(r.logic(deps, req), options);
    const follow = r.follow ? (f: InboundFrame) => r.follow?.(actor, f, req) : null;
    actor.start();
    const frameSub = follow ? deps.userFrames$.subscribe(follow) : null;
    const unregister = deps.screens.register(req.name, actor);
    const entry: Entry = { actor, row: r, holders: 0, stopQueued: false, engaged: false, replayed: false, cleanup: () => (frameSub?.unsubscribe(), unregister()) };
    entries.set(keyOf(req), entry);
    return entry;
  };
  const entryOf = (actor: unknown): Entry | undefined => [...entries.values()].find((e) => e.actor === actor);

  return {
    get: <R extends MachineRequest>(req: R) => {
      const e = entries.get(keyOf(req));
      const live = e && e.actor.getSnapshot().status === 'active' ? e : start(req);
      return live.actor as unknown as ActorFor<R>;
    },
    retain(req, actor) {
      const name = keyOf(req);
      let e = entries.get(name);
      if (!e || e.actor !== actor) return () => {};
      e.holders += 1;
      let released = false;
      return () => {
        if (released || !e) return;
        released = true;
        e.holders -= 1;
        if (e.holders > 0 || e.stopQueued) return;
        e.stopQueued = true;
        const entry = e;
        defer(() => {
          entry.stopQueued = false;
          if (entry.holders === 0) stopEntry(name, entry);
        });
        e = undefined;
      };
    },
    live: () => new Map([...entries].map(([k, v]) => [k, v.actor])),
    engage(actor) {
      const e = entryOf(actor);
      if (e) e.engaged = true;
    },
    intent(name, event) {
      const target = deps.screens.get(name);
      if (!target) return false;
      const e = entryOf(target);
      if (e) {
        if (e.actor.getSnapshot().status !== 'active') return false;
        e.engaged = true;
      }
      target.send(event);
      return true;
    },
    createFor(name, event, scene) {
      if (!isScreenMachineName(name)) return false;
      const live = deps.screens.get(name);
      if (live && entryOf(live)?.actor.getSnapshot().status === 'active') return false;
      const r = loadedRows.get(name);
      if (!r) return false;
      const fields = r.key ? r.fromIntent?.(event, scene, deps) : {};
      if (!fields) return false;
      const req = { ...fields, name } as MachineRequest;
      const existing = entries.get(keyOf(req));
      if (existing && existing.actor.getSnapshot().status === 'active') return false;
      start(req).replayed = true;
      return true;
    },
    leave() {
      for (const [key, e] of [...entries]) {
        e.engaged = false;
        if (e.replayed && e.holders === 0) stopEntry(key, e);
      }
    },
    state() {
      const out: Record<string, ScreenSnapshot> = {};
      for (const [key, e] of entries) {
        if (!e.engaged) continue;
        const snap = e.actor.getSnapshot() as { status: string; value: unknown; context: unknown };
        if (snap.status !== 'active') continue;
        out[key] = { value: jsonStable(snap.value), context: jsonStable(e.row.hashed ? e.row.hashed(snap.context) : snap.context) };
      }
      return out;
    },
    stop() {
      for (const [name, e] of [...entries]) stopEntry(name, e);
    },
  };
}
