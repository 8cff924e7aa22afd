import type { Actor, AnyActorLogic, InputFrom } from 'xstate';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../../api/client.ts';
import type { Clock } from '../../ports/types.ts';
import type { InboundFrame } from '../../machines/socketMachine.ts';
import type { ContractKind } from '../../protocol/market.ts';
import type { PositionPrefsStore } from '../positionPrefs.ts';
import type { ScreenActors } from '../screenActors.ts';
import type { TradingApi } from '../tradingApi.ts';

/**
 * What the rows of the screen machines' table share (src/core/screenMachines.ts): the row shape,
 * the core's dependencies a row builds its machine with, and the small helpers of several rows.
 * The rows themselves live beside this file, one module per screen, so the browser build loads a
 * row's machine (and its protocol schemas and validators) with the screen that uses it.
 */

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

/** A recorded screen intent as the replay reads it (external data: fields are unknown). */
export type IntentEvent = { type: string } & Record<string, unknown>;

/** What a headless replay knows when a recorded intent needs an actor: the path and the latest recorded answers. */
export interface ReplayScene {
  /** The replayed location (the last `ui.route`). */
  path: string;
  /** The data of the latest recorded 200 answer to `METHOD path` so far, undefined when none. */
  answer(method: string, path: string): unknown;
}

export type ContextOf<L extends AnyActorLogic> = ReturnType<L['getInitialSnapshot']> extends { context: infer C } ? C : never;

/**
 * One row of the table: how the core builds, feeds and keys one screen machine. `R` is what a screen
 * asks with (its name, and for the trade flows the contract and the ticket's input).
 */
export interface ScreenMachineRow<L extends AnyActorLogic, R> {
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

/** Infers a row's logic and request types from its `logic` (a request-less row asks with its name only). */
export const row = <L extends AnyActorLogic, R = unknown>(r: ScreenMachineRow<L, R>): ScreenMachineRow<L, R> => r;

/** Client order ids: the Random port's (recorded, replayed), else the clock's reading. */
export const newIdOf = ({ newId, clock }: ScreenMachinesDeps): (() => string) => newId ?? (() => `c${clock.now().toString(36)}`);

/** The money paths carry the `/api` base; the api client adds it itself. */
export const apiPath = (p: string) => p.replace(/^\/api/, '');

/** The contract of a trade screen's path (`/mFutures/BTCUSDT` → perp, `/stdFuture/…` → std) and its pair. */
export function tradePathOf(path: string): { contract: ContractKind; pair: string | null } | null {
  const m = /^\/(mFutures|stdFuture)(?:\/([A-Za-z0-9]+))?/.exec(path);
  if (!m) return null;
  return { contract: m[1] === 'mFutures' ? 'perp' : 'std', pair: m[2] ?? null };
}
