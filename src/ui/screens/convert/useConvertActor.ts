import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { convertMachine, type ConvertForm, type QuoteAnswer } from '../../../machines/convertMachine.ts';
import { CONVERT_PATHS, type Conversion, type Quote } from '../../../protocol/convert.ts';
import { useApi, useAppCore } from '../../app/AppCoreProvider.tsx';
import { useScreenActor } from '../../hooks/useScreenActor.ts';

const path = (p: string) => p.replace(/^\/api/, '');

/**
 * The convert screen's wiring to convertMachine, in one place (the core may own the actor later):
 * the quote and convert requests through the recorded Http port, the quote stamped with the core
 * clock's reading on arrival (the machine turns it into the countdown), and the actor on the
 * core's clock with its UI intents in the event log (name 'convert').
 */
export function useConvertActor() {
  const api = useApi();
  const core = useAppCore();
  const logic = useMemo(
    () =>
      convertMachine.provide({
        actors: {
          requestQuote: fromPromise<QuoteAnswer, ConvertForm>(async ({ input }) => {
            const quote = await api.post<Quote>(path(CONVERT_PATHS.quote), input);
            return { quote, receivedAt: core.ports.clock.now() };
          }),
          convert: fromPromise<Conversion, { quoteId: string }>(({ input }) => api.post<Conversion>(path(CONVERT_PATHS.convert), input)),
        },
      }),
    [api, core],
  );
  return useScreenActor('convert', logic);
}
