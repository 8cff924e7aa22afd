import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertRecording } from '../../../scripts/convert-market-data.ts';
import { MarketFixtureParseError, parseMarketFixture, safeParseMarketFixture, serializeMarketFixture } from '../../../src/protocol/fixture.ts';

const dir = new URL('../../../fixtures/market-data/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, dir), 'utf8');
const header = '{"format":"rft-market","version":1,"source":"test","symbols":["S"]}';

describe('market fixture reader', () => {
  it('parses frames and checkpoints with their line numbers, and round-trips', () => {
    const text = `${header}\n{"t":1,"frame":{"type":"pong","ts":1}}\n\n{"t":2,"check":{"symbol":"S","lastSeq":5,"bestBid":[1,2],"bestAsk":[3,4]}}\n`;
    const f = parseMarketFixture(text);
    expect(f.records.map((r) => [r.kind, r.line])).toEqual([['frame', 2], ['check', 4]]);
    expect(parseMarketFixture(serializeMarketFixture(f)).records.map((r) => r.kind)).toEqual(['frame', 'check']);
  });

  it.each([
    ['', 1, 'missing header'],
    ['{"format":"other","version":1,"source":"x","symbols":[]}', 1, 'bad header'],
    [`${header}\n{"t":1,"frame":{"type":"pong","ts":1}}\nnot json`, 3, 'invalid JSON'],
    [`${header}\n{"t":1,"frame":{"type":"depth","symbol":"S"}}`, 2, 'bad frame record'],
    [`${header}\n{"t":1,"check":{"symbol":"S","lastSeq":1.5,"bestBid":[1,2],"bestAsk":[3,4]}}`, 2, 'bad checkpoint'],
    [`${header}\n{"t":5,"frame":{"type":"pong","ts":1}}\n{"t":4,"frame":{"type":"pong","ts":1}}`, 3, 'back in time'],
  ])('reports errors naming the line (%#)', (text, line, message) => {
    const r = safeParseMarketFixture(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.line).toBe(line);
      expect(r.error.message).toContain(message);
    }
    expect(() => parseMarketFixture(text)).toThrow(MarketFixtureParseError);
    expect(() => parseMarketFixture(text)).toThrow(`line ${line}`);
  });

  it('the committed converted fixtures are what the converter produces from the raw recordings', () => {
    const spot = convertRecording(
      read('binance-spot-ws-recording/BINANCE.ws.1.0'),
      read('binance-spot-ws-recording/BINANCE.http.0.0'),
      parseMarketFixture(read('binance-spot.jsonl')).header.source,
      parseMarketFixture(read('binance-spot.jsonl')).header.license ?? '',
    );
    expect(serializeMarketFixture(spot)).toBe(read('binance-spot.jsonl'));
    const head = parseMarketFixture(read('binance-usdm.jsonl')).header;
    expect(head.symbols).toEqual(['SUSHIUSDT', 'AKROUSDT', 'KEEPUSDT', 'CTKUSDT']);
  });

  it('a spot diff chains to its own U - 1, so a frame lost from the recording shows as a gap', () => {
    const diff = (t: number, U: number, u: number) =>
      `${t}: {"stream":"nknusdt@depth@100ms","data":{"e":"depthUpdate","E":${Math.round(t * 1000)},"s":"NKNUSDT","U":${U},"u":${u},"b":[["0.35","1"]],"a":[]}}`;
    const ws = ['wss://stream.binance.com:9443/stream?streams=nknusdt@depth@100ms <-> 1000.0', diff(1000.1, 10, 12), diff(1000.2, 13, 14), diff(1000.4, 18, 19)].join('\n');
    const http = 'https://api.binance.com/api/v3/depth?symbol=NKNUSDT&limit=1000 -> 1000.05: {"lastUpdateId":11,"bids":[],"asks":[]}';
    const f = convertRecording(ws, http, 'test', '');
    const chain = f.records.flatMap((r) => (r.kind === 'frame' && r.frame.type === 'depth' && !r.frame.snapshot ? [[r.frame.prevSeq, r.frame.firstSeq, r.frame.lastSeq]] : []));
    // 15..17 were lost: the third diff says it follows 17, not 14 (the frame received before it).
    expect(chain).toEqual([[9, 10, 12], [12, 13, 14], [17, 18, 19]]);
  });
});
