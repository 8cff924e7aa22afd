import { createActor, fromPromise, type Actor, type AnyActorLogic } from 'xstate';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import type { Clock } from '../ports/types.ts';
import { compensationMachine, type CompensationRequest } from '../machines/compensationMachine.ts';
import { convertMachine, type ConvertForm, type QuoteAnswer } from '../machines/convertMachine.ts';
import { depositMachine, type DepositPick } from '../machines/depositMachine.ts';
import { withdrawalMachine, type SaveAddressRequest, type WithdrawalForm } from '../machines/withdrawalMachine.ts';
import { addressBookMachine, type BookRequest } from '../machines/addressBookMachine.ts';
import { kycMachine, type KycForm as KycFormValues } from '../machines/kycMachine.ts';
import { orderMachine, type OrderAck, type OrderInput, type PlaceOrderRequest } from '../machines/orderMachine.ts';
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
import type { ContractKind } from '../protocol/market.ts';
import { isVoucherFrame, VOUCHER_PATHS, type Voucher } from '../protocol/vouchers.ts';
import { CONVERT_PATHS, type Conversion, type Quote } from '../protocol/convert.ts';
import { MONEY_PATHS, type AddressBook, type DepositAddress, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../protocol/wallet.ts';
import type { ScreenActors } from './screenActors.ts';
import type { TradingApi } from './tradingApi.ts';

/**
 * The lifecycle machines of the account, trade and money screens (order ticket, KYC form,
 * compensation dialog, coupon merge, deposit address, withdrawal, address book, convert quote), built, started,
 * fed and stopped by the core. A screen asks for its actor
 * with {@link ScreenMachines.get} and holds it with {@link ScreenMachines.retain} while mounted
 * (src/ui/hooks/useCoreActor.ts); the core:
 * - provides each machine's requests through the core's recorded ApiClient,
 * - sends it the user-socket frames it follows (`kyc.frame`, `comp.frame`, `voucher.frame`),
 * - registers it in `core.screens` under its name, so a browser replay delivers the recorded
 *   `screen:<name>` intents to it,
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

/** The money paths carry the `/api` base; the api client adds it itself. */
const apiPath = (p: string) => p.replace(/^\/api/, '');

const logicOf = (deps: ScreenMachinesDeps) => {
  const { api, clock } = deps;
  return {
    deposit: depositMachine.provide({
      actors: {
        fetchAddress: fromPromise<DepositAddress, DepositPick>(({ input, signal }) => api.get<DepositAddress>(apiPath(MONEY_PATHS.depositAddress), { ...input }, signal)),
      },
    }),
    withdrawal: withdrawalMachine.provide({
      actors: {
        fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input, signal }) => api.get<WithdrawInfo>(apiPath(MONEY_PATHS.withdrawInfo), input, signal)),
        submit: fromPromise<Withdrawal, WithdrawalForm>(({ input, signal }) => api.post<Withdrawal>(apiPath(MONEY_PATHS.withdraw), input, { signal })),
        saveAddress: fromPromise<AddressBook, SaveAddressRequest>(({ input, signal }) => api.post<AddressBook>(apiPath(MONEY_PATHS.addresses), input, { signal })),
      },
    }),
    addressBook: addressBookMachine.provide({
      actors: {
        load: fromPromise<AddressBook>(({ signal }) => api.get<AddressBook>(apiPath(MONEY_PATHS.addresses), undefined, signal)),
        mutate: fromPromise<AddressBook, BookRequest>(({ input, signal }) => {
          const { kind, ...body } = input;
          const path = { add: MONEY_PATHS.addresses, rename: MONEY_PATHS.addressRename, delete: MONEY_PATHS.addressDelete, whitelist: MONEY_PATHS.whitelist }[kind];
          return api.post<AddressBook>(apiPath(path), body, { signal });
        }),
      },
    }),
    convert: convertMachine.provide({
      actors: {
        // The quote is stamped with the core clock's reading on arrival: the machine turns it into the countdown.
        requestQuote: fromPromise<QuoteAnswer, ConvertForm>(async ({ input, signal }) => {
          const quote = await api.post<Quote>(apiPath(CONVERT_PATHS.quote), input, { signal });
          return { quote, receivedAt: clock.now() };
        }),
        convert: fromPromise<Conversion, { quoteId: string }>(({ input, signal }) => api.post<Conversion>(apiPath(CONVERT_PATHS.convert), input, { signal })),
      },
    }),
    kyc: kycMachine.provide({
      actors: {
        fetchStatus: fromPromise<KycStatusDto>(({ signal }) => api.get<KycStatusDto>(KYC_PATHS.status, undefined, signal)),
        submit: fromPromise<KycStatusDto, KycFormValues>(({ input, signal }) => api.post<KycStatusDto>(KYC_PATHS.submit, kycFormData(input), { signal })),
      },
    }),
    compensation: compensationMachine.provide({
      actors: {
        submit: fromPromise<CompensationOrder, CompensationRequest>(({ input, signal }) => {
          const body = input.voucherId === undefined ? { id: input.id } : { id: input.id, voucherId: input.voucherId };
          return api.post<CompensationOrder>(COMPENSATION_PATHS[input.action], body, { signal });
        }),
      },
    }),
    coupon: voucherMachine.provide({
      actors: { merge: fromPromise<Voucher, MergeRequest>(({ input, signal }) => api.post<Voucher>(VOUCHER_PATHS.merge, { ids: input.ids }, { signal })) },
    }),
    copyFollow: followMachine.provide({
      actors: { follow: fromPromise<CopyFollow, FollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.follow, input, { signal })) },
    }),
    copyUnfollow: unfollowMachine.provide({
      actors: { unfollow: fromPromise<CopyFollow, UnfollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.unfollow, input, { signal })) },
    }),
    copyApply: applyMachine.provide({
      actors: {
        fetchApplication: fromPromise<CopyApplication | null>(({ signal }) => api.get<CopyApplication | null>(COPY_PATHS.apply, undefined, signal)),
        apply: fromPromise<CopyApplication, ApplyForm>(({ input, signal }) => api.post<CopyApplication>(COPY_PATHS.apply, input, { signal })),
      },
    }),
    close: (contract: ContractKind) =>
      closeMachine.provide({
        actors: {
          close: fromPromise<Order, CloseRequest>(({ input, signal }) => deps.tradingApi(contract).closePositionWith(input, signal)),
          closeAll: fromPromise<Order[], void>(({ signal }) => deps.tradingApi(contract).closeAll(signal)),
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
    tpsl: (contract: ContractKind) =>
      tpslMachine.provide({
        actors: { save: fromPromise<Position, TpslRequest>(({ input, signal }) => deps.tradingApi(contract).setTpSl(input.positionId, input.tp, input.sl, signal)) },
      }),
    order: (contract: ContractKind) =>
      orderMachine.provide({
        actors: { placeOrder: fromPromise<OrderAck, PlaceOrderRequest>(({ input, signal }) => deps.tradingApi(contract).placeOrder(input, signal)) },
      }),
  };
};

type Logic = ReturnType<typeof logicOf>;
export type KycActor = Actor<Logic['kyc']>;
export type CompensationActor = Actor<Logic['compensation']>;
export type CouponActor = Actor<Logic['coupon']>;
export type OrderActor = Actor<ReturnType<Logic['order']>>;
export type DepositActor = Actor<Logic['deposit']>;
export type WithdrawalActor = Actor<Logic['withdrawal']>;
export type AddressBookActor = Actor<Logic['addressBook']>;
export type ConvertActor = Actor<Logic['convert']>;
export type CopyFollowActor = Actor<Logic['copyFollow']>;
export type CopyUnfollowActor = Actor<Logic['copyUnfollow']>;
export type CopyApplyActor = Actor<Logic['copyApply']>;
export type CloseActor = Actor<ReturnType<Logic['close']>>;
export type TpslActor = Actor<ReturnType<Logic['tpsl']>>;

/** What a screen asks for: the name doubles as the `screen:<name>` intent actor. */
export type MachineRequest =
  | { name: 'kyc' }
  | { name: 'compensation' }
  | { name: 'coupon' }
  | { name: 'deposit' }
  | { name: 'withdrawal' }
  | { name: 'addressBook' }
  | { name: 'convert' }
  | { name: 'copyFollow' }
  | { name: 'copyUnfollow' }
  | { name: 'copyApply' }
  | { name: 'close'; contract: ContractKind }
  | { name: 'tpsl'; contract: ContractKind }
  | { name: 'order'; contract: ContractKind; input: OrderInput };

export type ActorFor<R extends MachineRequest> = R extends { name: 'kyc' }
  ? KycActor
  : R extends { name: 'compensation' }
    ? CompensationActor
    : R extends { name: 'coupon' }
      ? CouponActor
      : R extends { name: 'deposit' }
        ? DepositActor
        : R extends { name: 'withdrawal' }
          ? WithdrawalActor
          : R extends { name: 'addressBook' }
            ? AddressBookActor
          : R extends { name: 'convert' }
            ? ConvertActor
            : R extends { name: 'copyFollow' }
              ? CopyFollowActor
              : R extends { name: 'copyUnfollow' }
                ? CopyUnfollowActor
                : R extends { name: 'copyApply' }
                  ? CopyApplyActor
                  : R extends { name: 'close' }
                    ? CloseActor
                    : R extends { name: 'tpsl' }
                      ? TpslActor
                      : OrderActor;

export interface ScreenMachines {
  /** The live actor of `req.name`, created and started now if there is none. */
  get<R extends MachineRequest>(req: R): ActorFor<R>;
  /** Holds the actor while a screen shows it; the returned release lets it stop with its last holder. */
  retain(req: MachineRequest, actor: unknown): () => void;
  /** The live actors by name (the replay hashes nothing of them; tests read them). */
  live(): ReadonlyMap<string, Actor<AnyActorLogic>>;
  stop(): void;
}

/** One actor per screen, and per contract and symbol for the order ticket (a new pair is a new ticket). */
const keyOf = (req: MachineRequest): string =>
  req.name === 'order' ? `order:${req.contract}:${req.input.symbol}` : req.name === 'close' || req.name === 'tpsl' ? `${req.name}:${req.contract}` : req.name;

interface Entry {
  actor: Actor<AnyActorLogic>;
  holders: number;
  stopQueued: boolean;
  cleanup: () => void;
}

export function createScreenMachines(deps: ScreenMachinesDeps): ScreenMachines {
  const logic = logicOf(deps);
  const entries = new Map<string, Entry>();
  const defer = deps.defer ?? ((fn: () => void) => queueMicrotask(fn));

  const stopEntry = (name: string, e: Entry) => {
    e.cleanup();
    e.actor.stop();
    if (entries.get(name) === e) entries.delete(name);
  };

  const start = (req: MachineRequest): Entry => {
    const { clock } = deps;
    let actor: Actor<AnyActorLogic>;
    let follow: ((f: InboundFrame) => void) | null = null;
    switch (req.name) {
      case 'kyc': {
        const a = createActor(logic.kyc, { clock });
        follow = (f) => isKycFrame(f) && a.send({ type: 'kyc.frame', status: f.data });
        actor = a as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'compensation': {
        const a = createActor(logic.compensation, { clock });
        follow = (f) => isCompensationFrame(f) && a.send({ type: 'comp.frame', order: f.data });
        actor = a as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'coupon': {
        const a = createActor(logic.coupon, { clock });
        follow = (f) => isVoucherFrame(f) && a.send({ type: 'voucher.frame', voucher: f.data });
        actor = a as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'deposit':
        actor = createActor(logic.deposit, { clock }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'withdrawal': {
        const a = createActor(logic.withdrawal, { clock });
        // A balance change re-reads the form's numbers (available, Max) while the user edits.
        follow = (f) => {
          const v = a.getSnapshot().value;
          if (f.type === 'balance' && (v === 'editing' || v === 'locked')) a.send({ type: 'wd.refresh' });
        };
        actor = a as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'addressBook':
        actor = createActor(logic.addressBook, { clock }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'convert':
        actor = createActor(logic.convert, { clock }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'copyFollow':
        actor = createActor(logic.copyFollow, { clock }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'copyUnfollow':
        actor = createActor(logic.copyUnfollow, { clock }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'copyApply': {
        const a = createActor(logic.copyApply, { clock });
        follow = (f) => {
          const application = applicationOfFrame(f);
          if (application) a.send({ type: 'apply.frame', application });
        };
        actor = a as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'order':
        actor = createActor(logic.order(req.contract), { clock, input: req.input }) as unknown as Actor<AnyActorLogic>;
        break;
      case 'close': {
        const newId = deps.newId ?? (() => `c${clock.now().toString(36)}`);
        actor = createActor(logic.close(req.contract), { clock, input: { newId } }) as unknown as Actor<AnyActorLogic>;
        break;
      }
      case 'tpsl':
        actor = createActor(logic.tpsl(req.contract), { clock }) as unknown as Actor<AnyActorLogic>;
        break;
    }
    actor.start();
    const frameSub = follow ? deps.userFrames$.subscribe(follow) : null;
    const unregister = deps.screens.register(req.name, actor as unknown as { send(e: { type: string }): void });
    const entry: Entry = { actor, holders: 0, stopQueued: false, cleanup: () => (frameSub?.unsubscribe(), unregister()) };
    entries.set(keyOf(req), entry);
    return entry;
  };

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
    stop() {
      for (const [name, e] of [...entries]) stopEntry(name, e);
    },
  };
}
