import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayText, ReplayParseError } from '../../../src/core/replay/parse.ts';

const header = JSON.stringify({ format: 'rft-log', version: 1, startedAt: 1000, firstSeq: 1 });
const rec = (seq: number, t: number, kind = 'ws.in') => JSON.stringify({ seq, t, kind, conn: 1, data: '{}' });

function errorOf(text: string): ReplayParseError {
  try {
    parseReplayText(text);
  } catch (e) {
    if (e instanceof ReplayParseError) return e;
    throw new Error(`not a ReplayParseError: ${String(e)}`, { cause: e });
  }
  throw new Error('parsed without error');
}

describe('parseReplayText', () => {
  it('reads header, records and bundle metadata', () => {
    const log = parseReplayText([header, JSON.stringify({ seq: 0, t: 5, kind: 'env', language: 'en' }), rec(1, 0), rec(2, 3), ''].join('\n'));
    expect(log.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(log.meta.map((m) => m.kind)).toEqual(['env']);
    expect(log.lines).toEqual([3, 4]);
  });

  it.each([
    ['', 1, /empty file/],
    ['{"format":"other"}', 1, /unknown format "other"/],
    ['{"format":"rft-log","version":2,"startedAt":0}', 1, /unsupported rft-log version 2/],
    [`${header}\n${rec(1, 0)}\n{"seq":2,"t":1,"kind":"ws.in","data":"{\\"ty`, 3, /not valid JSON.*truncated/],
    [`${header}\n${rec(1, 0)}\n${rec(1, 2)}`, 3, /seq 1 does not increase/],
    [`${header}\n${rec(1, 5)}\n${rec(2, 2)}`, 3, /t 2 goes back in time/],
    [`${header}\n{"seq":1,"t":0}`, 2, /needs a string "kind"/],
    [`${header}\n[1,2]`, 2, /not a JSON object/],
    [`${header}\n\n\n{"seq":"x","t":0,"kind":"a"}`, 4, /integer "seq"/],
  ])('names the line of a malformed input (%#)', (text, line, message) => {
    const e = errorOf(text);
    expect(e.line).toBe(line);
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`line ${line}: `)).toBe(true);
  });

  it('turns an rft-market fixture into one market connection with book checks', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../fixtures/market-data/binance-spot.jsonl'), 'utf8');
    const log = parseReplayText(text);
    expect(log.source).toBe('rft-market');
    expect(log.records.slice(0, 2).map((r) => r.kind)).toEqual(['ws.open', 'ws.opened']);
    expect(log.records.some((r) => r.kind === 'expect.book')).toBe(true);
    const ts = log.records.map((r) => r.t);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
  });

  it('reports a broken market fixture line too', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../fixtures/market-data/binance-spot.jsonl'), 'utf8').split('\n');
    text[4] = '{"t":1,"frame":{"type":"depth"';
    expect(errorOf(text.join('\n')).line).toBe(5);
  });
});
