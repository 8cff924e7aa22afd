import { describe, it } from 'vitest';
import { assertLogProperty } from '../../replay/logProperty.ts';
import { buildScreenFlowLog, checkScreenFlowLog, screenFlowArb } from './screenFlowLogs.ts';

/**
 * Issue 27 point 4: generated logs of screen flows (order tickets the form or the server refuses,
 * KYC forms with bad photos and a reviewer's rejection, converts whose quote expires) replay headless
 * through the core's own flow actors to the same hash after every record, twice; each flow is in the
 * state its recording expects; nothing diverges. A failure is shrunk and written to
 * fixtures/generated/<property>-<seed>.jsonl with the invariant that broke (replay/logProperty.ts).
 */
describe('screen flows over generated logs', () => {
  it('replay to the same hash twice, each flow in its expected state, nothing diverges', async () => {
    await assertLogProperty({ property: 'screen-flows', arbitrary: screenFlowArb, toLog: buildScreenFlowLog, check: (log) => checkScreenFlowLog(log), params: { numRuns: 40 } });
  });
});
