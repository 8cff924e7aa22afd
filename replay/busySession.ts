import { createRecordedCore, type RecordedCore } from '../src/core/replay/record.ts';
import { buildSupportBundle, gzipBundle, APP_VERSION } from '../src/core/supportBundle.ts';
import { DEFAULT_LOG_BYTES, type LogStats } from '../src/ports/eventLog.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope, type ScriptedSocket } from '../src/ports/fakes.ts';
import { VirtualClock } from '../src/ports/virtualClock.ts';
import { simulatedMarketLog } from './simulatedLog.ts';

/**
 * A busy trade screen recorded for `minutes` (issue 16, "bundles people can trust"): the
 * server's seeded market simulator (replay/simulatedLog.ts: depth diffs every 125 ms, trades,
 * 1m klines of `symbols`, the all-market tickers every second) delivered frame by frame, at its
 * virtual time, to the market socket of a REAL recorded core (createRecordedCore on a virtual
 * clock, scripted transports), with the core subscribed to those topics as the trade screen is.
 * The ring is the app's own (default 2 MiB budget): what a 'Report a problem' after that session
 * would download. Deterministic: same arguments, same bytes.
 */
export interface BusySession {
  rec: RecordedCore;
  clock: VirtualClock;
  /** Records appended and their raw JSON-Lines size (what an uncompressed ring would need). */
  appended: number;
  rawBytes: number;
  stats: LogStats;
  /** The bundle's text and its gzipped download. */
  bundleText: string;
  bundleGzip: Uint8Array;
}

export function recordBusyTradeSession(opts: { minutes: number; symbols?: readonly string[]; logBytes?: number }): BusySession {
  const symbols = opts.symbols ?? ['BTCUSDT', 'ETHUSDT'];
  const startMs = Date.UTC(2026, 0, 1);
  const sim = simulatedMarketLog({ minutes: opts.minutes, symbols, startMs });
  const clock = new VirtualClock(startMs);
  const http = createScriptedHttp();
  http.on('GET', '/market/symbols', envelope(200, 'success', []));
  const sockets = createScriptedSocketFactory();
  const env = { appVersion: APP_VERSION, language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'bench', path: `/trade/${symbols[0] ?? 'BTCUSDT'}` };
  const rec = createRecordedCore({ clock, http, socket: sockets, storage: createMemoryStorage(), random: { id: () => 'r' } }, { location: () => env.path, env, logBytes: opts.logBytes ?? DEFAULT_LOG_BYTES });
  let appended = 0;
  let rawBytes = 0;
  rec.log.subscribe((r) => {
    appended += 1;
    rawBytes += JSON.stringify(r).length + 1;
  });
  const topics = symbols.flatMap((s) => [`${s.toLowerCase()}@depth`, `${s.toLowerCase()}@trade`, `${s.toLowerCase()}@kline_1m`]).concat('!ticker@arr');
  rec.core.market.send({ type: 'socket.subscribe', topics });
  let opened: ScriptedSocket | null = null;
  const marketSocket = (): ScriptedSocket | null => {
    const s = [...sockets.sockets].reverse().find((x) => x.url.includes('market')) ?? null;
    if (s && s !== opened) {
      s.open();
      opened = s;
    }
    return s;
  };
  for (const line of sim.text.split('\n').slice(1)) {
    if (line === '') continue;
    const r = JSON.parse(line) as { t: number; kind: string; data?: string };
    if (r.kind !== 'ws.in' || r.data === undefined) continue;
    if (startMs + r.t > clock.now()) clock.advance(startMs + r.t - clock.now());
    marketSocket()?.frame(r.data);
  }
  const bundleText = buildSupportBundle({ log: rec.log, actors: rec.core, env, now: clock.now() });
  return { rec, clock, appended, rawBytes, stats: rec.log.stats(), bundleText, bundleGzip: gzipBundle(bundleText) };
}
