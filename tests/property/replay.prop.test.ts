import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayLog } from '../../src/core/replay/driver.ts';
import { assertLogProperty, holds } from '../../replay/logProperty.ts';
import { buildLogText, checkGeneratedLog, logArb } from './generatedLogs.ts';

/**
 * Generated event logs (valid and malformed frames, reorders, gaps, disconnects) replayed twice
 * give the same hash at every checkpoint, and the invariants hold at every checkpoint: no live
 * book is crossed, no negative balance is shown, no machine is stuck (a reconnecting socket has
 * its timer armed, every actor is active), and nothing diverges from the recording.
 * A failure writes the shrunk log as fixtures/generated/<property>-<seed>.jsonl naming the broken
 * invariant (replay/logProperty.ts, docs/REPLAY.md "Shrunk failures").
 */

describe('replay determinism and invariants over generated logs', () => {
  it('same log → same hash at every checkpoint; invariants hold; nothing diverges', async () => {
    await assertLogProperty({ property: 'replay-invariants', arbitrary: logArb, toLog: buildLogText, check: (log) => checkGeneratedLog(log), params: { numRuns: 60 } });
  });
});

describe('replay never crashes on hostile log content', () => {
  const KINDS = ['ws.open', 'ws.opened', 'ws.in', 'ws.out', 'ws.close', 'ws.error', 'ws.closeLocal', 'http.request', 'http.response', 'storage.init', 'storage.set', 'storage.remove', 'random', 'timer', 'ui.intent', 'ui.route', 'env', 'expect.book', 'unknown.kind'];
  const field = fc.oneof(fc.jsonValue(), fc.constantFrom('/api/ws/market', '/api/ws/user', 'GET', 'POST', '/user/info', 'session', 'market', 'user'));
  const record = fc.record({
    dt: fc.integer({ min: 0, max: 40_000 }),
    kind: fc.constantFrom(...KINDS),
    conn: fc.oneof(fc.integer({ min: 1, max: 3 }), field),
    id: fc.oneof(fc.integer({ min: 1, max: 3 }), field),
    url: field,
    method: field,
    path: field,
    data: fc.oneof(fc.string(), field, fc.constant('{"type":"depth","symbol":"X","snapshot":true,"seq":1,"bids":[[1,1]],"asks":[[2,1]],"ts":1}')),
    envelope: fc.oneof(field, fc.record({ code: fc.constantFrom(200, 401, 500), msg: fc.string(), data: fc.jsonValue() })),
    actor: field,
    event: fc.oneof(field, fc.record({ type: fc.constantFrom('user.logout', 'user.fetchInfo', 'socket.subscribe', 'socket.reconnectNow', 'user.login', 'nonsense') }, { requiredKeys: ['type'] })),
    key: fc.oneof(fc.constantFrom('token', 'lang'), field),
    value: field,
    check: field,
  });

  it('any sequence of well-formed lines with arbitrary payloads replays to a result (no throw, no hang)', async () => {
    await assertLogProperty({
      property: 'replay-hostile',
      arbitrary: fc.array(record, { maxLength: 30 }),
      toLog: (list) => {
        let t = 0;
        const lines = [JSON.stringify({ format: 'rft-log', version: 1, startedAt: 1_700_000_000_000, firstSeq: 1 })];
        list.forEach(({ dt, ...r }, i) => {
          t += dt;
          lines.push(JSON.stringify({ ...r, seq: i + 1, t }));
        });
        return `${lines.join('\n')}\n`;
      },
      check: async (log) => {
        const result = await replayLog(log, { checkpointEvery: 5 });
        await holds('every record is delivered', () => expect(result.delivered).toBe(log.records.length));
        await holds('the replay ends with a state hash', () => expect(typeof result.final.hash).toBe('string'));
      },
      params: { numRuns: 100 },
    });
  });
});
