import { fromPromise } from 'xstate';
import { compensationMachine, type CompensationRequest } from '../../machines/compensationMachine.ts';
import { COMPENSATION_PATHS, isCompensationFrame, type CompensationOrder } from '../../protocol/compensation.ts';
import { row } from './row.ts';

/** The compensation orders' claim / boost / withdraw dialog (src/ui/screens/compensation). */
export const compensation = row({
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
});
