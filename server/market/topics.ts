import { KLINE_INTERVALS, topicSchema, type KlineInterval } from '../../src/protocol/market.ts';

/** A parsed market topic. `topic` is the normalised (lower-case) name frames are published on. */
export type ParsedTopic =
  | { kind: 'allTickers'; topic: 'all@ticker' }
  | { kind: 'depth' | 'trade' | 'ticker'; topic: string; symbol: string }
  | { kind: 'kline'; topic: string; symbol: string; interval: KlineInterval };

export type TopicResult = { ok: true; value: ParsedTopic } | { ok: false; code: 400 | 404; msg: string };

/**
 * Parses `<pair>@<type>` (case-insensitive pair, e.g. `btcusdt@depth`, `BTCUSDT@kline_1h`,
 * `all@ticker`). `hasSymbol` says whether an upper-case symbol exists: an unknown one is a 404,
 * anything malformed a 400. Interval names are case-sensitive (`1m` minute vs `1M` month).
 */
export function parseTopic(raw: string, hasSymbol: (symbol: string) => boolean): TopicResult {
  if (!topicSchema.safeParse(raw).success) return { ok: false, code: 400, msg: `Invalid topic: ${raw.slice(0, 64)}` };
  const at = raw.indexOf('@');
  const pair = raw.slice(0, at).toLowerCase();
  const type = raw.slice(at + 1);
  if (pair === 'all') {
    if (type === 'ticker') return { ok: true, value: { kind: 'allTickers', topic: 'all@ticker' } };
    return { ok: false, code: 400, msg: `Invalid topic: ${raw}` };
  }
  const symbol = pair.toUpperCase();
  let parsed: ParsedTopic | null = null;
  if (type === 'depth' || type === 'trade' || type === 'ticker') parsed = { kind: type, topic: `${pair}@${type}`, symbol };
  else if (type.startsWith('kline_')) {
    const iv = type.slice('kline_'.length);
    const interval = KLINE_INTERVALS.find((i) => i === iv);
    if (interval !== undefined) parsed = { kind: 'kline', topic: `${pair}@kline_${interval}`, symbol, interval };
  }
  if (parsed === null) return { ok: false, code: 400, msg: `Invalid topic: ${raw}` };
  if (!hasSymbol(symbol)) return { ok: false, code: 404, msg: `Unknown symbol: ${symbol}` };
  return { ok: true, value: parsed };
}
