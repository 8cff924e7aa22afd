import { z } from 'zod';
import { marketFrameSchema, type MarketFrame } from './market.ts';

/**
 * Market fixture format (docs/STREAMS.md "Fixture format"), shared by the recorded-feed player
 * on the server, the replay tool and the tests.
 *
 * JSON Lines. Line 1 is a header; every later non-empty line is either a frame record
 * `{"t":<unix ms received>,"frame":<server→client market frame>}` or a checkpoint
 * `{"t":<unix ms>,"check":{"symbol","lastSeq","bestBid":[p,q],"bestAsk":[p,q]}}`.
 * Records are in delivery order; `t` never decreases.
 */

export const MARKET_FIXTURE_FORMAT = 'rft-market';
export const MARKET_FIXTURE_VERSION = 1;

const levelSchema = z.tuple([z.number().finite(), z.number().finite().nonnegative()]);

export const marketFixtureHeaderSchema = z.object({
  format: z.literal(MARKET_FIXTURE_FORMAT),
  version: z.literal(MARKET_FIXTURE_VERSION),
  /** Where the data comes from (for example the upstream recording file). */
  source: z.string(),
  symbols: z.array(z.string()),
  /** Optional free text: license, credits, conversion notes. */
  license: z.string().optional(),
  notes: z.string().optional(),
});
export type MarketFixtureHeader = z.infer<typeof marketFixtureHeaderSchema>;

/**
 * Top of book as published by the exchange after the diff whose lastSeq is `lastSeq` was applied.
 * A book rebuilt from the fixture's frames must show exactly these levels at that point.
 */
export const bookCheckpointSchema = z.object({
  symbol: z.string(),
  lastSeq: z.number().int(),
  bestBid: levelSchema,
  bestAsk: levelSchema,
});
export type BookCheckpoint = z.infer<typeof bookCheckpointSchema>;

const frameRecordSchema = z.object({ t: z.number().finite(), frame: marketFrameSchema });
const checkRecordSchema = z.object({ t: z.number().finite(), check: bookCheckpointSchema });

/** One parsed fixture line after the header. `line` is 1-based (the header is line 1). */
export type MarketFixtureRecord =
  | { kind: 'frame'; line: number; t: number; frame: MarketFrame }
  | { kind: 'check'; line: number; t: number; check: BookCheckpoint };

export interface MarketFixture {
  header: MarketFixtureHeader;
  records: MarketFixtureRecord[];
}

/** A fixture line that is not valid JSON or does not match the format. */
export interface MarketFixtureError {
  line: number;
  message: string;
}

export type MarketFixtureResult = { ok: true; fixture: MarketFixture } | { ok: false; error: MarketFixtureError };

/** Thrown by {@link parseMarketFixture}; the message names the line. */
export class MarketFixtureParseError extends Error {
  constructor(readonly line: number, readonly detail: string) {
    super(`market fixture line ${line}: ${detail}`);
    this.name = 'MarketFixtureParseError';
  }
}

function describeZod(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

function parseJson(text: string, line: number): { ok: true; value: unknown } | { ok: false; error: MarketFixtureError } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: { line, message: `invalid JSON (${(e as Error).message})` } };
  }
}

/** Validates the header line (line 1). */
export function parseMarketFixtureHeader(text: string): { ok: true; header: MarketFixtureHeader } | { ok: false; error: MarketFixtureError } {
  const json = parseJson(text, 1);
  if (!json.ok) return json;
  const r = marketFixtureHeaderSchema.safeParse(json.value);
  if (!r.success) return { ok: false, error: { line: 1, message: `bad header: ${describeZod(r.error)}` } };
  return { ok: true, header: r.data };
}

/**
 * Validates one record line (line >= 2). `prevT` enforces non-decreasing time;
 * pass `-Infinity` for the first record.
 */
export function parseMarketFixtureRecord(
  text: string,
  line: number,
  prevT = -Infinity,
): { ok: true; record: MarketFixtureRecord } | { ok: false; error: MarketFixtureError } {
  const json = parseJson(text, line);
  if (!json.ok) return json;
  const value = json.value;
  let record: MarketFixtureRecord;
  if (typeof value === 'object' && value !== null && 'check' in value) {
    const r = checkRecordSchema.safeParse(value);
    if (!r.success) return { ok: false, error: { line, message: `bad checkpoint: ${describeZod(r.error)}` } };
    record = { kind: 'check', line, t: r.data.t, check: r.data.check };
  } else {
    const r = frameRecordSchema.safeParse(value);
    if (!r.success) return { ok: false, error: { line, message: `bad frame record: ${describeZod(r.error)}` } };
    record = { kind: 'frame', line, t: r.data.t, frame: r.data.frame };
  }
  if (record.t < prevT) return { ok: false, error: { line, message: `t ${record.t} goes back in time (previous ${prevT})` } };
  return { ok: true, record };
}

/** Parses a whole fixture text; never throws. Empty lines (e.g. a trailing newline) are skipped. */
export function safeParseMarketFixture(text: string): MarketFixtureResult {
  const lines = text.split('\n');
  const first = lines[0];
  if (first === undefined || first.trim() === '') return { ok: false, error: { line: 1, message: 'missing header line' } };
  const head = parseMarketFixtureHeader(first);
  if (!head.ok) return head;
  const records: MarketFixtureRecord[] = [];
  let prevT = -Infinity;
  for (let i = 1; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.trim() === '') continue;
    const r = parseMarketFixtureRecord(text, i + 1, prevT);
    if (!r.ok) return r;
    prevT = r.record.t;
    records.push(r.record);
  }
  return { ok: true, fixture: { header: head.header, records } };
}

/** Parses a whole fixture text, throwing {@link MarketFixtureParseError} (naming the line) on bad input. */
export function parseMarketFixture(text: string): MarketFixture {
  const r = safeParseMarketFixture(text);
  if (!r.ok) throw new MarketFixtureParseError(r.error.line, r.error.message);
  return r.fixture;
}

/** The frames of a fixture in order, without checkpoints. */
export function fixtureFrames(fixture: MarketFixture): MarketFrame[] {
  const out: MarketFrame[] = [];
  for (const r of fixture.records) if (r.kind === 'frame') out.push(r.frame);
  return out;
}

/** Serialises a fixture back to JSON Lines (header first, one record per line, trailing newline). */
export function serializeMarketFixture(fixture: MarketFixture): string {
  const out = [JSON.stringify(fixture.header)];
  for (const r of fixture.records) {
    out.push(r.kind === 'frame' ? JSON.stringify({ t: r.t, frame: r.frame }) : JSON.stringify({ t: r.t, check: r.check }));
  }
  return `${out.join('\n')}\n`;
}
