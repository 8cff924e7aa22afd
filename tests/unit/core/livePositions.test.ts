import { describe, expect, it } from 'vitest';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import type { TradingAccountState } from '../../../src/core/userStreams.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { INSTRUMENTS } from '../../../server/market/instruments.ts';
import { initialMargin, notional, scaled } from '../../../server/trading/formulas.ts';
import { positionDto, type PositionRow } from '../../../server/trading/store.ts';

/**
 * Issue 26, Major 1: the trade screen's positions follow the market's mark between position
 * frames. The server sends a position frame only when the position changes; the core values it
 * again at every mark of its symbol's ticker, exactly as the server would at that mark.
 */

const btc = INSTRUMENTS.find((i) => i.info.symbol === 'BTCUSDT')!.info;
const eth = INSTRUMENTS.find((i) => i.info.symbol === 'ETHUSDT')!.info;

function row(rules: typeof btc, side: 'long' | 'short', qtyText: number, entry: number, lev: number): PositionRow {
  const qty = scaled(qtyText, rules.qtyPrecision);
  const cost = notional(rules, scaled(entry, rules.pricePrecision), qty);
  return {
    id: `P-${rules.symbol}`, user_id: 7, symbol: rules.symbol, contract: 'perp', side, qty: String(qty), cost: String(cost),
    margin: String(initialMargin(cost, lev)), leverage: lev, status: 'open', realized_pnl: '0', opened_at: 1, updated_at: 1, closed_at: null,
  } as PositionRow;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('live position figures in the core', () => {
  it('a ticker mark revalues the position (uPnL, return, margin ratio, distance to liquidation) without a position frame', async () => {
    const long = row(btc, 'long', 0.05, 67_538.9, 10);
    const short = row(eth, 'short', 1, 3_000, 20);
    const http = createScriptedHttp();
    http.on('GET', '/user/info', envelope(200, 'ok', { id: 7, cover_email: 'a***@b.c', avatar: '' }));
    http.on('GET', '/wallet/balances', envelope(200, 'ok', []));
    http.on('GET', '/trade/positions', envelope(200, 'ok', [positionDto(long, btc, 67_538.9, null, null), positionDto(short, eth, 3_000, null, null)]));
    http.on('GET', '/trade/orders/open', envelope(200, 'ok', { list: [], total: 0, page: 1, pageSize: 50 }));
    for (const path of ['/trade/orders/history', '/trade/fills', '/wallet/ledger']) http.on('GET', path, envelope(200, 'ok', { list: [], total: 0, page: 1, pageSize: 50 }));
    const sockets = createScriptedSocketFactory();
    const queue: (() => void)[] = [];
    const core = createAppCore(
      { clock: new VirtualClock(1_000_000), http, socket: sockets, storage: createMemoryStorage({ token: 't' }), random: { id: () => 'x' } },
      { location: () => '/mFutures/BTCUSDT', defer: (fn) => void queue.push(fn) },
    );
    const market = sockets.sockets[0]!;
    market.open();
    let s: TradingAccountState | null = null;
    const sub = core.streams.user.trading$('perp').subscribe((v) => (s = v));
    await tick();
    queue.splice(0).forEach((fn) => fn());
    await tick();
    queue.splice(0).forEach((fn) => fn());
    expect(s!.positions.map((p) => p.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    // the core follows the mark of every symbol it holds a position in
    const subscribed = market.sent.map((x) => JSON.parse(x) as { action: string; topics?: string[] }).filter((m) => m.action === 'subscribe').flatMap((m) => m.topics);
    expect(subscribed).toEqual(expect.arrayContaining(['btcusdt@ticker', 'ethusdt@ticker']));

    const ticker = (symbol: string, mark: number, ts: number) => ({ type: 'ticker', symbol, last: mark, open: mark, high: mark, low: mark, volume: 1, quoteVolume: 1, change: 0, changePct: 0, mark, ts });
    market.frame(ticker('BTCUSDT', 67_543, 10));
    const atNewMark = positionDto(long, btc, 67_543, null, null);
    const p = s!.positions[0]!;
    expect({ mark: p.markPrice, pnl: p.unrealizedPnl, ret: p.returnPct, ratio: p.marginRatio }).toEqual({
      mark: 67_543,
      pnl: atNewMark.unrealizedPnl,
      ret: atNewMark.returnPct,
      ratio: atNewMark.marginRatio,
    });
    expect(p.unrealizedPnl).not.toBe(positionDto(long, btc, 67_538.9, null, null).unrealizedPnl);
    expect(p.liqDistance).toBeCloseTo((67_543 - p.liquidationPrice) / 67_543, 12);
    // the ETH short did not move
    expect(s!.positions[1]!.markPrice).toBe(3_000);
    market.frame(ticker('ETHUSDT', 3_150, 11));
    expect(s!.positions[1]!.unrealizedPnl).toBe(positionDto(short, eth, 3_150, null, null).unrealizedPnl);
    expect(s!.positions[1]!.liqDistance).toBeCloseTo((s!.positions[1]!.liquidationPrice - 3_150) / 3_150, 12);
    sub.unsubscribe();
    core.stop();
  });
});
