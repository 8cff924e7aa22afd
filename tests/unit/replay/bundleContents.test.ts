import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseReplayText, ReplayParseError } from '../../../src/core/replay/parse.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { buildSupportBundle, type BundleContents } from '../../../src/core/supportBundle.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { simulatedMarketLog } from '../../../replay/simulatedLog.ts';

/**
 * A support bundle says on its first line what it holds (issue 16): app version, the span and
 * number of events kept, what the ring's cap dropped, the redaction rules; and the replay tool
 * refuses a bundle from an incompatible app version with a clear message.
 */
const ROOT = join(import.meta.dirname, '../../..');
const env = { appVersion: '1.0.0', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'test' };

function record(minutes: number, logBytes?: number): string {
  const market = parseReplayText(simulatedMarketLog({ minutes, seed: 3 }).text);
  const clock = new VirtualClock(market.header.startedAt);
  const sockets = createScriptedSocketFactory();
  const rec = createRecordedCore(
    { clock, http: createScriptedHttp(), socket: sockets, storage: createMemoryStorage({ lang: 'en' }), random: { id: () => 'r' } },
    { location: () => '/mFutures/BTCUSDT', env, logBytes },
  );
  const s = sockets.last();
  s.open();
  for (const r of market.records) {
    if (r.kind !== 'ws.in') continue;
    clock.set(market.header.startedAt + r.t);
    s.frame(String(r.data));
  }
  const text = buildSupportBundle({ log: rec.log, actors: rec.core, now: clock.now(), env });
  rec.core.stop();
  return text;
}

const contentsOf = (text: string) => (parseReplayText(text).header.bundle as { contents: BundleContents }).contents;

describe('support bundle contents line', () => {
  it('a bundle that kept everything says so, with its span, events and redaction rules', () => {
    const text = record(0.5);
    const log = parseReplayText(text);
    const c = contentsOf(text);
    expect(c.appVersion).toBe('1.0.0');
    expect(c.events).toBe(log.records.length);
    expect(c.firstSeq).toBe(1);
    expect(c.lastSeq).toBe(log.records.at(-1)?.seq);
    expect(c.dropped).toMatchObject({ records: 0, note: 'nothing dropped: the whole session is in the bundle' });
    expect(c.span.minutes).toBeGreaterThan(0.4);
    expect(c.redaction.keys).toEqual(expect.arrayContaining(['password', 'token', 'docnumber']));
    expect(c.redaction.placeholders).toContain('<redacted:password#n>');
  });

  it('a capped bundle says what the ring dropped', () => {
    const text = record(2, 60_000);
    const log = parseReplayText(text);
    const c = contentsOf(text);
    expect(c.firstSeq).toBeGreaterThan(1);
    expect(c.firstSeq).toBe(log.header.firstSeq);
    expect(c.dropped.records).toBe(c.firstSeq - 1);
    expect(c.dropped.minutes).toBeGreaterThan(0);
    expect(c.dropped.note).toContain(`dropped the first ${c.dropped.records} records`);
    expect(c.events).toBe(log.records.length);
    expect(c.span.fromT).toBe(log.records[0]?.t);
  });
});

describe('compressed logs', () => {
  it('npm run replay reads a gzipped fixture (.jsonl.gz) to the same pinned hash', () => {
    const spec = JSON.parse(readFileSync(join(ROOT, 'fixtures/sessions/orderbook-gap-ui.expect.json'), 'utf8')) as { hash: string };
    const file = join(mkdtempSync(join(tmpdir(), 'rft-gz-')), 'orderbook-gap-ui.jsonl.gz');
    writeFileSync(file, gzipSync(readFileSync(join(ROOT, 'fixtures/sessions/orderbook-gap-ui.jsonl'))));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'replay/cli.ts', file, '--timeline', '0'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`state hash ${spec.hash}`);
  });
});

describe('incompatible bundles are refused', () => {
  const fixture = readFileSync(join(ROOT, 'fixtures/sessions/login-google-ui.jsonl'), 'utf8');
  const asVersion = (v: string) => {
    const [head, ...rest] = fixture.split('\n');
    const h = JSON.parse(head ?? '{}') as { bundle: Record<string, unknown> };
    h.bundle.appVersion = v;
    return [JSON.stringify(h), ...rest].join('\n');
  };

  it('the same major version replays; another one is a clear error on line 1', () => {
    expect(parseReplayText(asVersion('1.4.2')).records.length).toBeGreaterThan(0);
    expect(parseReplayText(asVersion('record-session')).records.length).toBeGreaterThan(0); // a recording tool's own log
    expect(() => parseReplayText(asVersion('2.0.0'))).toThrow(ReplayParseError);
    expect(() => parseReplayText(asVersion('2.0.0'))).toThrow(/^line 1: this bundle was recorded by app version "2.0.0"; this replay tool replays app 1.x/);
  });

  it('npm run replay exits 2 with that message, no stack trace', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rft-ver-')), 'future.jsonl');
    writeFileSync(file, asVersion('2.0.0'));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'replay/cli.ts', file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`error: ${file}: line 1: this bundle was recorded by app version "2.0.0"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
