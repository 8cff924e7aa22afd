/**
 * Loaders for the recorded market data in fixtures/market-data (see its README for sources
 * and licences). Test helpers only: CI has no ../shared, so always read from fixtures/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Candle } from '../../../src/protocol/market.ts';

const root = fileURLToPath(new URL('../../../fixtures/market-data/', import.meta.url));

/** Rows of a CSV with a header line, as string cells keyed by column name. */
function readCsv(relative: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(root + relative, 'utf8').trim().split(/\r?\n/);
  const cols = (header ?? '').split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
  });
}

/** The 1000 Binance BTCUSDT 15m candles of the TA-Lib reference set. */
export function talibCandles(): Candle[] {
  return readCsv('btcusdt-15m-talib/BTCUSDT_15m.csv').map((r) => ({
    t: Date.parse(`${r.time?.replace(' ', 'T')}Z`),
    o: Number(r.open),
    h: Number(r.high),
    l: Number(r.low),
    c: Number(r.close),
    v: Number(r.volume),
  }));
}

/** One TA-Lib output column; empty cells (TA-Lib's lookback) become null. */
export function talibColumn(file: string, column: string): (number | null)[] {
  return readCsv(`btcusdt-15m-talib/${file}`).map((r) => {
    const cell = r[column];
    if (cell === undefined) throw new Error(`no column ${column} in ${file}`);
    return cell === '' ? null : Number(cell);
  });
}

interface KlinechartsRow {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The 978 daily BTC candles klinecharts uses in its docs. */
export function klinechartsDaily(): Candle[] {
  const rows = JSON.parse(readFileSync(root + 'klinecharts-btc-daily-kline.json', 'utf8')) as KlinechartsRow[];
  return rows.map((r) => ({ t: r.timestamp, o: r.open, h: r.high, l: r.low, c: r.close, v: r.volume }));
}
