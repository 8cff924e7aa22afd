import { createActor, fromPromise, type Actor, type AnyActorLogic, type InputFrom } from 'xstate';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import type { Clock } from '../ports/types.ts';
import { compensationMachine, type CompensationRequest } from '../machines/compensationMachine.ts';
import { convertMachine, type ConvertForm, type QuoteAnswer } from '../machines/convertMachine.ts';
import { depositMachine, type DepositPick } from '../machines/depositMachine.ts';
import { withdrawalMachine, type SaveAddressRequest, type WithdrawalForm } from '../machines/withdrawalMachine.ts';
import { addressBookMachine, type BookRequest } from '../machines/addressBookMachine.ts';
import { kycMachine, type KycForm as KycFormValues } from '../machines/kycMachine.ts';
import { orderMachine, orderRulesOf, type OrderAck, type OrderInput, type PlaceOrderRequest } from '../machines/orderMachine.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import { voucherMachine, type MergeRequest } from '../machines/voucherMachine.ts';
import { applyMachine, followMachine, unfollowMachine, type ApplyForm, type FollowRequest, type UnfollowRequest } from '../machines/copyMachines.ts';
import { applicationOfFrame, COPY_PATHS, type CopyApplication, type CopyFollow } from '../protocol/copy.ts';
import { closeMachine, type CloseRequest } from '../machines/closeMachine.ts';
import { tpslMachine, type TpslRequest } from '../machines/tpslMachine.ts';
import type { Order, Position } from '../protocol/trading.ts';
import type { PositionPrefsStore } from './positionPrefs.ts';
import { COMPENSATION_PATHS, isCompensationFrame, type CompensationOrder } from '../protocol/compensation.ts';
import { isKycFrame, KYC_PATHS, type KycStatusDto } from '../protocol/kyc.ts';
import type { ContractKind, SymbolInfo } from '../protocol/market.ts';
import { isVoucherFrame, VOUCHER_PATHS, type Voucher } from '../protocol/vouchers.ts';
import { CONVERT_PATHS, type Conversion, type Quote } from '../protocol/convert.ts';
import { MONEY_PATHS, type AddressBook, type DepositAddress, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../protocol/wallet.ts';
import { describeBlobs, type ScreenActors } from './screenActors.ts';
import type { TradingApi } from './tradingApi.ts';

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
 * - stops it when its last holder leaves (after the current synchronous run, so React's
 *   StrictMode unmount-and-remount keeps the same actor). `get` returns the live actor of the
 *   same request, so a render React runs twice does not start two.
 */

/** The multipart body of POST /kyc/submit: trimmed text parts and the two photos. */
export function kycFormData(form: KycFormValues): FormData {
  const body = new FormData();
  body.append('country', form.country.trim());
  body.append('docType', form.docType.trim());
  body.append('firstName', form.firstName.trim());
  body.append('lastName', form.lastName.trim());
  body.append('docNumber', form.docNumber.trim());
  for (const slot of ['cover', 'info'] as const) {
    const f = form[slot];
    if (f instanceof Blob) body.append(slot, f, f.name);
    // A replayed intent carries only the photo's description (the log never holds its bytes):
    // send a same-shaped placeholder so the request matches the recorded one.
    else if (f) body.append(slot, new File([new Uint8Array(f.size)], f.name, { type: f.type }), f.name);
  }
  return body;
}

export interface ScreenMachinesDeps {
  api: ApiClient;
  clock: Clock;
  userFrames$: Observable<InboundFrame>;
  screens: ScreenActors;
  tradingApi: (contract: ContractKind) => TradingApi;
  /** The user's close confirmations (close / close all), read by the close machine's guards. */
  positionPrefs?: PositionPrefsStore;
  /** Client order ids of closes (the Random port). */
  newId?: () => string;
  defer?: (fn: () => void) => void;
}

/** Client order ids: the Random port's (recorded, replayed), else the clock's reading. */
const newIdOf = ({ newId, clock }: ScreenMachinesDeps): (() => string) => newId ?? (() => `c${clock.now().toString(36)}`);

/** The money paths carry the `/api` base; the api client adds it itself. */
const apiPath = (p: string) => p.replace(/^\/api/, '');

/**
 * One row of the table: how the core builds, feeds and keys one screen machine. `R` is what a screen
 * asks with (its name, and for the trade flows the contract and the ticket's input).
 */
interface ScreenMachineRow<L extends AnyActorLogic, R> {
  /** The machine with its requests provided through the core's recorded ApiClient. */
  logic(deps: ScreenMachinesDeps, req: R): L;
  /** createActor's input, for the machines that take one. */
  input?(deps: ScreenMachinesDeps, req: R): InputFrom<L>;
  /** The user-socket frames it follows (the core sends them; no screen does). */
  follow?(actor: Actor<L>, frame: InboundFrame, req: R): void;
  /** One live actor per key; the name when absent. */
  key?(req: R): string;
  /**
   * Headless replay: the request a recorded `screen:<name>` intent builds this row's actor with when
   * none lives (no screen mounted it), from the intent and the replayed scene; null when it cannot.
   * A row without a key needs none (its request is its name).
   */
  fromIntent?(event: IntentEvent, scene: ReplayScene, deps: ScreenMachinesDeps): R | null;
  /**
   * The part of the context that is the flow's own state (hashed into `core.state().screens`), when
   * the context also holds data a screen refreshes from the account (the close dialog's live position).
   */
  hashed?(context: ContextOf<L>): unknown;
}

type ContextOf<L extends AnyActorLogic> = ReturnType<L['getInitialSnapshot']> extends { context: infer C } ? C : never;

/** A recorded screen intent as the replay reads it (external data: fields are unknown). */
export type IntentEvent = { type: string } & Record<string, unknown>;

/** What a headless replay knows when a recorded intent needs an actor: the path and the latest recorded answers. */
export interface ReplayScene {
  /** The replayed location (the last `ui.route`). */
  path: string;
  /** The data of the latest recorded 200 answer to `METHOD path` so far, undefined when none. */
  answer(method: string, path: string): unknown;
}

/** The contract of a trade screen's path (`/mFutures/BTCUSDT` → perp, `/stdFuture/…` → std) and its pair. */
export function tradePathOf(path: string): { contract: ContractKind; pair: string | null } | null {
  const m = /^\/(mFutures|stdFuture)(?:\/([A-Za-z0-9]+))?/.exec(path);
  if (!m) return null;
  return { contract: m[1] === 'mFutures' ? 'perp' : 'std', pair: m[2] ?? null };
}

/** The contract a close / TP-SL intent is about: its position's, else the trade screen's. */
const contractOfIntent = (event: IntentEvent, scene: ReplayScene): ContractReq | null => {
  const c = (event.position as { contract?: unknown } | null | undefined)?.contract;
  if (c === 'perp' || c === 'std') return { contract: c };
  const trade = tradePathOf(scene.path);
  return trade ? { contract: trade.contract } : null;
};

/** A position in a dialog's context is the account's live data: the flow's own state is which position. */
const positionById = <C extends { position: { id: string } | null }>(c: C) => ({ ...c, position: c.position?.id ?? null });

/** Infers a row's logic and request types from its `logic` (a request-less row asks with its name only). */
const row = <L extends AnyActorLogic, R = unknown>(r: ScreenMachineRow<L, R>): ScreenMachineRow<L, R> => r;

type ContractReq = { contract: ContractKind };
type OrderReq = { contract: ContractKind; input: OrderInput };

/**
 * Every screen machine, declared once: a new flow is one row. The name doubles as the
 * `screen:<name>` intent actor of the event log.
 */
const SCREEN_MACHINES = {
  kyc: row({
    logic: ({ api }) =>
      kycMachine.provide({
        actors: {
          fetchStatus: fromPromise<KycStatusDto>(({ signal }) => api.get<KycStatusDto>(KYC_PATHS.status, undefined, signal)),
          submit: fromPromise<KycStatusDto, KycFormValues>(({ input, signal }) => api.post<KycStatusDto>(KYC_PATHS.submit, kycFormData(input), { signal })),
        },
      }),
    follow: (a, f) => {
      if (isKycFrame(f)) a.send({ type: 'kyc.frame', status: f.data });
    },
  }),
  compensation: row({
    logic: ({ api }) =>
      compensationMachine.provide({
        actors: {
          submit: fromPromise<CompensationOrder, CompensationRequest>(({ input, signal }) => {
            const body = input.voucherId === undefined ? { id: input.id } : { id: input.id, voucherId: input.voucherId };
            return api.post<CompensationOrder>(COMPENSATION_PATHS[input.action], body, { signal });
          }),
        },
      }),
    follow: (a, f) => {
      if (isCompensationFrame(f)) a.send({ type: 'comp.frame', order: f.data });
    },
  }),
  coupon: row({
    logic: ({ api }) =>
      voucherMachine.provide({
        actors: { merge: fromPromise<Voucher, MergeRequest>(({ input, signal }) => api.post<Voucher>(VOUCHER_PATHS.merge, { ids: input.ids }, { signal })) },
      }),
    follow: (a, f) => {
      if (isVoucherFrame(f)) a.send({ type: 'voucher.frame', voucher: f.data });
    },
  }),
  deposit: row({
    logic: ({ api }) =>
      depositMachine.provide({
        actors: {
          fetchAddress: fromPromise<DepositAddress, DepositPick>(({ input, signal }) => api.get<DepositAddress>(apiPath(MONEY_PATHS.depositAddress), { ...input }, signal)),
        },
      }),
  }),
  withdrawal: row({
    logic: ({ api }) =>
      withdrawalMachine.provide({
        actors: {
          fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input, signal }) => api.get<WithdrawInfo>(apiPath(MONEY_PATHS.withdrawInfo), input, signal)),
          submit: fromPromise<Withdrawal, WithdrawalForm>(({ input, signal }) => api.post<Withdrawal>(apiPath(MONEY_PATHS.withdraw), input, { signal })),
          saveAddress: fromPromise<AddressBook, SaveAddressRequest>(({ input, signal }) => api.post<AddressBook>(apiPath(MONEY_PATHS.addresses), input, { signal })),
        },
      }),
    // A balance change re-reads the form's numbers (available, Max) while the user edits.
    follow: (a, f) => {
      const v = a.getSnapshot().value;
      if (f.type === 'balance' && (v === 'editing' || v === 'locked')) a.send({ type: 'wd.refresh' });
    },
  }),
  addressBook: row({
    logic: ({ api }) =>
      addressBookMachine.provide({
        actors: {
          load: fromPromise<AddressBook>(({ signal }) => api.get<AddressBook>(apiPath(MONEY_PATHS.addresses), undefined, signal)),
          mutate: fromPromise<AddressBook, BookRequest>(({ input, signal }) => {
            const { kind, ...body } = input;
            const path = { add: MONEY_PATHS.addresses, rename: MONEY_PATHS.addressRename, delete: MONEY_PATHS.addressDelete, whitelist: MONEY_PATHS.whitelist }[kind];
            return api.post<AddressBook>(apiPath(path), body, { signal });
          }),
        },
      }),
  }),
  convert: row({
    logic: ({ api, clock }) =>
      convertMachine.provide({
        actors: {
          // The quote is stamped with the core clock's reading on arrival: the machine turns it into the countdown.
          requestQuote: fromPromise<QuoteAnswer, ConvertForm>(async ({ input, signal }) => {
            const quote = await api.post<Quote>(apiPath(CONVERT_PATHS.quote), input, { signal });
            return { quote, receivedAt: clock.now() };
          }),
          convert: fromPromise<Conversion, { quoteId: string }>(({ input, signal }) => api.post<Conversion>(apiPath(CONVERT_PATHS.convert), input, { signal })),
        },
      }),
  }),
  copyFollow: row({
    logic: ({ api }) =>
      followMachine.provide({
        actors: { follow: fromPromise<CopyFollow, FollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.follow, input, { signal })) },
      }),
  }),
  copyUnfollow: row({
    logic: ({ api }) =>
      unfollowMachine.provide({
        actors: { unfollow: fromPromise<CopyFollow, UnfollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.unfollow, input, { signal })) },
      }),
  }),
  copyApply: row({
    logic: ({ api }) =>
      applyMachine.provide({
        actors: {
          fetchApplication: fromPromise<CopyApplication | null>(({ signal }) => api.get<CopyApplication | null>(COPY_PATHS.apply, undefined, signal)),
          apply: fromPromise<CopyApplication, ApplyForm>(({ input, signal }) => api.post<CopyApplication>(COPY_PATHS.apply, input, { signal })),
        },
      }),
    follow: (a, f) => {
      const application = applicationOfFrame(f);
      if (application) a.send({ type: 'apply.frame', application });
    },
  }),
  close: row({
    logic: (deps, req: ContractReq) =>
      closeMachine.provide({
        actors: {
          close: fromPromise<Order, CloseRequest>(({ input, signal }) => deps.tradingApi(req.contract).closePositionWith(input, signal)),
          closeAll: fromPromise<Order[], void>(({ signal }) => deps.tradingApi(req.contract).closeAll(signal)),
        },
        guards: {
          confirmClose: () => deps.positionPrefs?.get().confirmClose ?? true,
          confirmCloseAll: () => deps.positionPrefs?.get().confirmCloseAll ?? true,
        },
        actions: {
          savePref: (_, params: { kind: 'close' | 'closeAll'; dontAsk: boolean }) => {
            if (params.dontAsk) deps.positionPrefs?.set(params.kind === 'close' ? { confirmClose: false } : { confirmCloseAll: false });
          },
        },
      }),
    input: (deps) => ({ newId: newIdOf(deps) }),
    key: (req) => `close:${req.contract}`,
    fromIntent: contractOfIntent,
    hashed: positionById,
  }),
  tpsl: row({
    logic: (deps, req: ContractReq) =>
      tpslMachine.provide({
        actors: { save: fromPromise<Position, TpslRequest>(({ input, signal }) => deps.tradingApi(req.contract).setTpSl(input.positionId, input.tp, input.sl, signal)) },
      }),
    key: (req) => `tpsl:${req.contract}`,
    fromIntent: contractOfIntent,
    hashed: positionById,
  }),
  order: row({
    logic: (deps, req: OrderReq) =>
      orderMachine.provide({
        actors: { placeOrder: fromPromise<OrderAck, PlaceOrderRequest>(({ input, signal }) => deps.tradingApi(req.contract).placeOrder(input, signal)) },
      }),
    input: (_, req) => req.input,
    // The user-socket order frames of its contract move a placed ticket on (pending → filled / canceled).
    follow: (a, f, req) => {
      const o = f.type === 'order' ? ((f as { data?: unknown }).data as Order | null | undefined) : null;
      if (o && typeof o === 'object' && o.contract === req.contract) a.send({ type: 'order.frame', clientOrderId: o.clientOrderId, orderId: String(o.id), status: o.status });
    },
    // a new pair is a new ticket
    key: (req) => `order:${req.contract}:${req.input.symbol}`,
    // The trade screen's ticket: its contract and pair from the path, the pair's rules from the recorded instrument list.
    fromIntent: (_, scene, deps) => {
      const trade = tradePathOf(scene.path);
      const list = scene.answer('GET', '/market/symbols');
      const info = trade?.pair && Array.isArray(list) ? (list as SymbolInfo[]).find((i) => i?.symbol === trade.pair) : undefined;
      if (!trade || !info) return null;
      return { contract: trade.contract, input: { symbol: info.symbol, rules: orderRulesOf(info), newId: newIdOf(deps), draft: { leverage: Math.min(10, info.maxLever) } } };
    },
  }),
};

type Table = typeof SCREEN_MACHINES;
type Name = keyof Table;
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
const rowOf = (req: MachineRequest) => SCREEN_MACHINES[req.name] as ScreenMachineRow<AnyActorLogic, MachineRequest>;

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
      const r = SCREEN_MACHINES[name] as ScreenMachineRow<AnyActorLogic, object>;
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
