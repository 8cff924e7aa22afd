import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { reduceOrderBook } from '../../../src/streams/orderBook.ts';
import type { MarketReducers } from '../../../src/core/marketStreams.ts';
import { GENERATED_DIR, runLogProperty } from '../../../replay/logProperty.ts';
import { buildLogText, checkGeneratedLog, logArb } from '../../property/generatedLogs.ts';
import { buildScreenFlowLog, checkScreenFlowLog, screenFlowArb } from '../../property/screenFlowLogs.ts';

/**
 * A property over generated event logs that fails writes its shrunk log as a replayable fixture
 * (replay/logProperty.ts). Here the failure is deliberate: the order book reducer is swapped,
 * through the core's own `marketReducers` option, for one that stores a removed level (quantity 0)
 * as quantity -1, which breaks the "no non-positive book level" invariant.
 */
const ROOT = join(import.meta.dirname, '../../..');
const broken: Partial<MarketReducers> = {
  orderBook: (s, f) => reduceOrderBook(s, f.type === 'depth' && !f.snapshot ? { ...f, bids: f.bids.map(([p, q]) => [p, q === 0 ? -1 : q]), asks: f.asks.map(([p, q]) => [p, q === 0 ? -1 : q]) } : f),
};

const written: string[] = [];
afterEach(() => {
  for (const f of written.splice(0)) rmSync(f, { force: true });
  const dir = join(ROOT, GENERATED_DIR);
  try {
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // another test process (the sqlite / postgres vitest projects) is writing there right now
  }
});

// Both vitest projects run this file, maybe at once: each writes its own fixture.
const PROPERTY = `broken-book-p${process.pid}`;

describe('shrunk failures become fixtures', () => {
  it('a broken invariant writes a small fixture that replays and names the invariant', async () => {
    const r = await runLogProperty({
      property: PROPERTY,
      arbitrary: logArb,
      toLog: buildLogText,
      check: (log) => checkGeneratedLog(log, { marketReducers: broken }),
      params: { numRuns: 200, seed: 1616 },
      dir: join(ROOT, GENERATED_DIR),
    });
    if (r.ok) throw new Error('the broken reducer went unnoticed');
    written.push(r.fixture, r.expectFile);
    expect(r.fixture).toBe(join(ROOT, GENERATED_DIR, `${PROPERTY}-1616.jsonl`));
    expect(r.invariant).toMatch(/^no invariant violation at any checkpoint/);
    expect(r.message).toMatch(/book BTCUSDT shows level \d+ with quantity -1/);
    expect(r.shrinks).toBeGreaterThan(0);

    // Small: a snapshot and the one update that removes a level, with the socket around them.
    const text = readFileSync(r.fixture, 'utf8');
    const log = parseReplayText(text);
    expect(log.records.length).toBe(r.events);
    expect(r.events).toBeLessThanOrEqual(36);
    const spec = JSON.parse(readFileSync(r.expectFile, 'utf8')) as { description: string; generated: { property: string; seed: number; invariant: string }; expectations: unknown[] };
    expect(spec.generated).toMatchObject({ property: PROPERTY, seed: 1616, invariant: r.invariant });
    expect(spec.description).toContain('quantity -1');

    // It replays: with the broken reducer the violation is back; with the real one it is gone
    // (the fixture is a regression test once the bug is fixed).
    const again = await replayLog(log, { checkpointEvery: 1, core: { marketReducers: broken } });
    expect(again.checkpoints.flatMap((c) => c.violations).some((v) => /quantity -1/.test(v))).toBe(true);
    const fixed = await replayLog(log, { checkpointEvery: 1 });
    expect(fixed.checkpoints.flatMap((c) => c.violations)).toEqual([]);

    // `npm run replay` reads it like any fixture and names the invariant from its expect file.
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'replay/cli.ts', r.fixture, '--timeline', '0'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain(`generated fixture: shrunk from the property "${PROPERTY}" (seed 1616)`);
    expect(cli.stdout).toContain(`it broke the invariant "${r.invariant}"`);
    expect(cli.stdout).toMatch(/state hash [0-9a-f]{16}/);
  });

  it('a failing screen-flow property writes its shrunk log too: one refused ticket, replayable, naming the invariant', async () => {
    // Deliberately wrong: the check expects a ticket the server refused to be back to editing.
    const property = `broken-ticket-p${process.pid}`;
    const r = await runLogProperty({
      property,
      arbitrary: screenFlowArb,
      toLog: buildScreenFlowLog,
      check: (log) => checkScreenFlowLog(log, (e) => (e.key.startsWith('order:') && e.value === 'rejected' ? { ...e, value: 'editing' } : e)),
      params: { numRuns: 100, seed: 2727 },
      dir: join(ROOT, GENERATED_DIR),
    });
    if (r.ok) throw new Error('the wrong expectation went unnoticed');
    written.push(r.fixture, r.expectFile);
    expect(r.invariant).toBe('each flow is in the state the recording expects');
    expect(r.message).toMatch(/order:perp:BTCUSDT: expected \{"value":"editing"/);
    const log = parseReplayText(readFileSync(r.fixture, 'utf8'));
    // Shrunk to the one ticket that matters (a flow after it may stay: fast-check keeps what it cannot drop cheaply).
    expect(log.records.filter((x) => x.kind === 'ui.intent' && x.event && (x.event as { type: string }).type === 'order.submit')).toHaveLength(1);
    expect(log.records.filter((x) => x.kind === 'ui.route' && x.path === '/mFutures/BTCUSDT')).toHaveLength(1);
    expect(r.events).toBeLessThanOrEqual(60);
    // With the right expectations the same fixture holds (it is a regression test as it stands).
    await checkScreenFlowLog(log);
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'replay/cli.ts', r.fixture, '--timeline', '0', '--every', '1'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain(`it broke the invariant "${r.invariant}"`);
    expect(cli.stdout).toMatch(/screen order:perp:BTCUSDT: "rejected"/);
    expect(cli.stdout).not.toContain('not replayed headless');
  });

  it('a property that holds writes nothing', async () => {
    const r = await runLogProperty({ property: `ok-p${process.pid}`, arbitrary: logArb, toLog: buildLogText, check: (log) => checkGeneratedLog(log), params: { numRuns: 10, seed: 7 }, dir: join(ROOT, GENERATED_DIR) });
    expect(r.ok).toBe(true);
    expect(existsSync(join(ROOT, GENERATED_DIR, `ok-p${process.pid}-7.jsonl`))).toBe(false);
  });
});
