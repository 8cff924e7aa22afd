import { assign, emit, fromPromise, setup } from 'xstate';
import { toUnits, triggerProblem, type TriggerProblem } from '../protocol/positionMath.ts';
import { fromUnits } from '../protocol/netting.ts';
import type { Position } from '../protocol/trading.ts';

/**
 * The TP/SL dialog of a position (issue 14; docs/TRADE_UI.md):
 *
 * ```
 * idle ─tpsl.open→ editing ─tpsl.save (both triggers on the right side of the mark)→ saving ─done→ idle (emits tpslSaved)
 *                  │  tpsl.tp / tpsl.sl / tpsl.position (live mark)                        └─error→ editing (serverError, emits tpslFailed)
 *                  ├─tpsl.save (a trigger on the wrong side)→ editing (problems say why; nothing sent)
 *                  └─tpsl.cancel→ idle
 * ```
 *
 * A long's take-profit must be above the mark and its stop-loss below; a short's the reverse (the
 * server's rule, docs/TRADING.md). The check uses the mark the dialog shows at the moment of the
 * click. An empty field removes that trigger. Invariants (tests/property/tpslMachine.prop.test.ts):
 * one request per save, never two at once, and nothing on the wrong side of the mark is ever sent.
 */

export interface TpslRules {
  pricePrecision: number;
  tickSize: number;
}

export interface TpslRequest {
  positionId: string;
  tp: string | null;
  sl: string | null;
}

export interface TpslProblems {
  tp?: TriggerProblem;
  sl?: TriggerProblem;
}

export interface TpslContext {
  position: Position | null;
  rules: TpslRules | null;
  tp: string;
  sl: string;
  problems: TpslProblems;
  serverError: string | null;
  sends: number;
  /** The mark the last save was checked against. */
  checkedMark: number | null;
}

export type TpslEvent =
  | { type: 'tpsl.open'; position: Position; rules: TpslRules }
  /** Derived: the live position (its mark moves). */
  | { type: 'tpsl.position'; position: Position | null }
  | { type: 'tpsl.tp'; text: string }
  | { type: 'tpsl.sl'; text: string }
  | { type: 'tpsl.save' }
  | { type: 'tpsl.cancel' };

export type TpslEmitted = { type: 'tpslSaved'; request: TpslRequest; position: Position } | { type: 'tpslFailed'; msg: string };

/** Both fields checked against the position's current mark. */
export function checkTpsl(c: Pick<TpslContext, 'position' | 'rules' | 'tp' | 'sl'>): TpslProblems {
  const p = c.position;
  const r = c.rules;
  if (!p || !r) return {};
  const out: TpslProblems = {};
  const tp = triggerProblem('tp', p.side, p.markPrice, c.tp, r.pricePrecision, r.tickSize);
  const sl = triggerProblem('sl', p.side, p.markPrice, c.sl, r.pricePrecision, r.tickSize);
  if (tp) out.tp = tp;
  if (sl) out.sl = sl;
  return out;
}

const trigger = (text: string, dp: number): string | null => {
  const t = text.trim();
  if (t === '') return null;
  const u = toUnits(t, dp);
  return u === null ? t : fromUnits(u, dp);
};

export function tpslRequestOf(c: Pick<TpslContext, 'position' | 'rules' | 'tp' | 'sl'>): TpslRequest {
  const dp = c.rules?.pricePrecision ?? 8;
  return { positionId: c.position?.id ?? '', tp: trigger(c.tp, dp), sl: trigger(c.sl, dp) };
}

const errText = (e: unknown): string => {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
};

const saveNotProvided = fromPromise<Position, TpslRequest>(async () => {
  throw new Error("tpslMachine: actor 'save' not provided");
});

const text = (n: number | null, dp: number) => (n === null ? '' : n.toFixed(dp));

export const tpslMachine = setup({
  types: { context: {} as TpslContext, events: {} as TpslEvent, emitted: {} as TpslEmitted },
  actors: { save: saveNotProvided },
  guards: {
    ok: ({ context }) => context.position !== null && Object.keys(checkTpsl(context)).length === 0,
  },
  actions: {
    open: assign(({ event }) =>
      event.type === 'tpsl.open'
        ? {
            position: event.position,
            rules: event.rules,
            tp: text(event.position.tp, event.rules.pricePrecision),
            sl: text(event.position.sl, event.rules.pricePrecision),
            problems: {},
            serverError: null,
            checkedMark: null,
          }
        : {},
    ),
    live: assign(({ context, event }) => (event.type === 'tpsl.position' && event.position && context.position && event.position.id === context.position.id ? { position: event.position } : {})),
    setTp: assign(({ context, event }) => (event.type === 'tpsl.tp' ? { tp: event.text, problems: { ...context.problems, tp: undefined }, serverError: null } : {})),
    setSl: assign(({ context, event }) => (event.type === 'tpsl.sl' ? { sl: event.text, problems: { ...context.problems, sl: undefined }, serverError: null } : {})),
    showProblems: assign(({ context }) => ({ problems: checkTpsl(context), checkedMark: context.position?.markPrice ?? null })),
    startSend: assign(({ context }) => ({ sends: context.sends + 1, problems: {}, serverError: null, checkedMark: context.position?.markPrice ?? null })),
    takeError: assign({ serverError: ({ event }) => errText((event as { error?: unknown }).error) }),
    emitFailed: emit(({ event }) => ({ type: 'tpslFailed' as const, msg: errText((event as { error?: unknown }).error) })),
    emitSaved: emit(({ context }) => ({ type: 'tpslSaved' as const, request: tpslRequestOf(context), position: context.position as Position })),
    reset: assign({ position: null, rules: null, tp: '', sl: '', problems: {}, serverError: null, checkedMark: null }),
  },
}).createMachine({
  id: 'tpsl',
  context: { position: null, rules: null, tp: '', sl: '', problems: {}, serverError: null, sends: 0, checkedMark: null },
  initial: 'idle',
  states: {
    idle: { on: { 'tpsl.open': { target: 'editing', actions: 'open' } } },
    editing: {
      on: {
        'tpsl.position': { actions: 'live' },
        'tpsl.tp': { actions: 'setTp' },
        'tpsl.sl': { actions: 'setSl' },
        'tpsl.save': [{ guard: 'ok', target: 'saving', actions: 'startSend' }, { actions: 'showProblems' }],
        'tpsl.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    saving: {
      on: { 'tpsl.position': { actions: 'live' } },
      invoke: {
        src: 'save',
        input: ({ context }) => tpslRequestOf(context),
        onDone: { target: 'idle', actions: ['emitSaved', 'reset'] },
        onError: { target: 'editing', actions: ['takeError', 'emitFailed'] },
      },
    },
  },
});
