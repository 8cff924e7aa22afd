import { fromPromise } from 'xstate';
import { convertMachine, type ConvertForm, type QuoteAnswer } from '../../machines/convertMachine.ts';
import { CONVERT_PATHS, type Conversion, type Quote } from '../../protocol/convert.ts';
import { apiPath, row } from './row.ts';

/** The convert quote (src/ui/screens/convert). */
export const convert = row({
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
});
