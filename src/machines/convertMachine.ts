import { assign, fromPromise, setup } from 'xstate';
import { CONVERT_MSG, type Conversion, type ConvertAccount, type ConvertCoin, type Quote } from '../protocol/convert.ts';

/**
 * Instant convert on /convert (issue 12; docs/WALLET.md):
 *
 * ```
 * idle ─convert.preview (form ok)→ quoting ─ok→ quoted{counting, 1 s ticks} ─convert.confirm→ converting ─ok→ done
 *  ↑      (form not ok: error shown)   └─error→ idle (msg)   │ after ttl → expired      └─error: expired → expired (msg)
 *  └──── any field change, convert.cancel ───────────────────┘ expired ─convert.requote→ quoting       └─other → idle (msg)
 * ```
 *
 * Invariants (tests/property/convertMachine.prop.test.ts):
 * - one convert request per confirmed quote, never two in flight: `converting` is entered only from
 *   `quoted` (where a second `convert.confirm` is not heard), and leaving it drops the quote, so a
 *   double click converts once;
 * - an expired quote is never sent: the `quoteTtl` delay (the quote's lifetime on the injected
 *   clock) leaves `quoted` for `expired`, where `convert.confirm` does nothing;
 * - every refused request leaves `error` set (the server msg), so a convert that did not happen says why.
 *
 * No globals: the two requests are the `requestQuote` and `convert` actors the screen provides,
 * and the countdown is `after` delays on the actor's clock (the core's clock, virtual in replay).
 */

export interface ConvertForm {
  from: ConvertCoin;
  to: ConvertCoin;
  /** Decimal string as typed (already sanitised by the screen). */
  amount: string;
  account: ConvertAccount;
}

/** What the quote actor resolves with: the quote and the core clock's reading when it arrived. */
export interface QuoteAnswer {
  quote: Quote;
  receivedAt: number;
}

export interface ConvertContext {
  form: ConvertForm;
  quote: Quote | null;
  /** How long the current quote holds on this client's clock (ms). */
  ttlMs: number;
  /** Whole seconds shown on the countdown: always ⌈time left / 1 s⌉. */
  secondsLeft: number;
  /** Delay to the next countdown tick: the first lands on a whole second of time left, then 1 s. */
  tickMs: number;
  /** English message of the last refusal (client rule or server msg); the UI translates it. */
  error: string | null;
  /** The last filled convert. */
  result: Conversion | null;
  /** Requests started in this machine's life (tests and support bundles read them). */
  quotes: number;
  converts: number;
}

export type ConvertEvent =
  | { type: 'convert.from'; coin: ConvertCoin }
  | { type: 'convert.to'; coin: ConvertCoin }
  | { type: 'convert.swap' }
  | { type: 'convert.amount'; value: string }
  | { type: 'convert.account'; account: ConvertAccount }
  | { type: 'convert.preview' }
  | { type: 'convert.confirm' }
  | { type: 'convert.cancel' }
  | { type: 'convert.requote' }
  | { type: 'convert.again' };

export const DEFAULT_CONVERT_FORM: ConvertForm = { from: 'USDT', to: 'BTC', amount: '', account: 'fund' };

/**
 * The quote's lifetime on this client: `expiresAt − receivedAt` when the core clock agrees with the
 * server's (the reading falls inside the quote's window, so transit time is already spent), else the
 * server's own window `expiresAt − createdAt` (clocks apart: trust the duration, not the instant).
 */
export function quoteTtl(quote: Pick<Quote, 'createdAt' | 'expiresAt'>, receivedAt: number): number {
  const full = Math.max(0, quote.expiresAt - quote.createdAt);
  if (receivedAt >= quote.createdAt && receivedAt <= quote.expiresAt) return quote.expiresAt - receivedAt;
  return full;
}

const POSITIVE = /^(?=.*[1-9])\d+(\.\d+)?$/;

/** The client rule before a quote is asked for: an amount above zero and two different coins (CONVERT_MSG texts). */
export function checkConvertForm(f: ConvertForm): string | null {
  if (f.from === f.to) return CONVERT_MSG.sameCoin;
  if (!POSITIVE.test(f.amount.trim())) return CONVERT_MSG.amountRequired;
  return null;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}
const errOf = (event: unknown) => errorText((event as { error: unknown }).error);

const quoteNotProvided = fromPromise<QuoteAnswer, ConvertForm>(async () => {
  throw new Error("convertMachine: actor 'requestQuote' not provided");
});
const convertNotProvided = fromPromise<Conversion, { quoteId: string }>(async () => {
  throw new Error("convertMachine: actor 'convert' not provided");
});

/** Field edits: the same wherever the form is editable; they always drop a quote. */
const edits = {
  'convert.from': { target: '#convert.idle', actions: 'setFrom' },
  'convert.to': { target: '#convert.idle', actions: 'setTo' },
  'convert.swap': { target: '#convert.idle', actions: 'swap' },
  'convert.amount': { target: '#convert.idle', actions: 'setAmount' },
  'convert.account': { target: '#convert.idle', actions: 'setAccount' },
} as const;

export const convertMachine = setup({
  types: { context: {} as ConvertContext, events: {} as ConvertEvent },
  actors: { requestQuote: quoteNotProvided, convert: convertNotProvided },
  delays: {
    quoteTtl: ({ context }) => context.ttlMs,
    nextTick: ({ context }) => context.tickMs,
  },
  guards: {
    formOk: ({ context }) => checkConvertForm(context.form) === null,
    quoteExpired: ({ event }) => errOf(event) === CONVERT_MSG.quoteExpired,
  },
  actions: {
    setFrom: assign(({ context, event }) => {
      if (event.type !== 'convert.from') return {};
      const to = event.coin === context.form.to ? context.form.from : context.form.to;
      return { form: { ...context.form, from: event.coin, to }, error: null, quote: null };
    }),
    setTo: assign(({ context, event }) => {
      if (event.type !== 'convert.to') return {};
      const from = event.coin === context.form.from ? context.form.to : context.form.from;
      return { form: { ...context.form, to: event.coin, from }, error: null, quote: null };
    }),
    swap: assign(({ context }) => ({ form: { ...context.form, from: context.form.to, to: context.form.from }, error: null, quote: null })),
    setAmount: assign(({ context, event }) => (event.type === 'convert.amount' ? { form: { ...context.form, amount: event.value }, error: null, quote: null } : {})),
    setAccount: assign(({ context, event }) => (event.type === 'convert.account' ? { form: { ...context.form, account: event.account }, error: null, quote: null } : {})),
    showFormError: assign({ error: ({ context }) => checkConvertForm(context.form) }),
    countQuote: assign({ quotes: ({ context }) => context.quotes + 1, error: null, quote: null }),
    takeQuote: assign(({ event }) => {
      const { quote, receivedAt } = (event as unknown as { output: QuoteAnswer }).output;
      const ttlMs = quoteTtl(quote, receivedAt);
      const secondsLeft = Math.ceil(ttlMs / 1000);
      return { quote, ttlMs, secondsLeft, tickMs: ttlMs - Math.max(0, secondsLeft - 1) * 1000 };
    }),
    tick: assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1), tickMs: 1000 }),
    countConvert: assign({ converts: ({ context }) => context.converts + 1, error: null }),
    takeResult: assign({ result: ({ event }) => (event as unknown as { output: Conversion }).output, quote: null }),
    takeError: assign({ error: ({ event }) => errOf(event) }),
    expire: assign({ error: CONVERT_MSG.quoteExpired, secondsLeft: 0 }),
    clearQuote: assign({ quote: null, error: null }),
    dropQuote: assign({ quote: null }),
    reset: assign(({ context }) => ({ form: { ...context.form, amount: '' }, quote: null, error: null })),
  },
}).createMachine({
  id: 'convert',
  context: { form: DEFAULT_CONVERT_FORM, quote: null, ttlMs: 0, secondsLeft: 0, tickMs: 1000, error: null, result: null, quotes: 0, converts: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        ...edits,
        'convert.preview': [{ guard: 'formOk', target: 'quoting' }, { actions: 'showFormError' }],
      },
    },
    quoting: {
      entry: 'countQuote',
      invoke: {
        src: 'requestQuote',
        input: ({ context }) => ({ ...context.form, amount: context.form.amount.trim() }),
        onDone: { target: 'quoted', actions: 'takeQuote' },
        onError: { target: 'idle', actions: 'takeError' },
      },
    },
    quoted: {
      initial: 'counting',
      after: { quoteTtl: { target: 'expired', actions: 'expire' } },
      states: {
        counting: {
          after: { nextTick: { target: 'counting', reenter: true, actions: 'tick' } },
        },
      },
      on: {
        ...edits,
        'convert.confirm': 'converting',
        'convert.cancel': { target: 'idle', actions: 'clearQuote' },
      },
    },
    converting: {
      entry: 'countConvert',
      invoke: {
        src: 'convert',
        input: ({ context }) => ({ quoteId: context.quote?.quoteId ?? '' }),
        onDone: { target: 'done', actions: 'takeResult' },
        onError: [
          { guard: 'quoteExpired', target: 'expired', actions: 'takeError' },
          { target: 'idle', actions: ['takeError', 'dropQuote'] },
        ],
      },
    },
    expired: {
      on: {
        ...edits,
        'convert.requote': 'quoting',
        'convert.preview': 'quoting',
        'convert.cancel': { target: 'idle', actions: 'clearQuote' },
      },
    },
    done: {
      on: {
        ...edits,
        'convert.again': { target: 'idle', actions: 'reset' },
      },
    },
  },
});

export type ConvertStateName = 'idle' | 'quoting' | 'quoted' | 'converting' | 'expired' | 'done';

/** The top state of a convert snapshot value ('quoted' for `{quoted: 'counting'}`). */
export function convertStateOf(value: unknown): ConvertStateName {
  if (typeof value === 'string') return value as ConvertStateName;
  return (Object.keys(value as object)[0] ?? 'idle') as ConvertStateName;
}
