import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { createApiClient } from '../../../src/api/client.ts';
import { balancesBook, positionsBook } from '../../../src/core/accountBooks.ts';
import { createUserStreams } from '../../../src/core/userStreams.ts';
import { of } from 'rxjs';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import { createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';
import type { Balance, Position } from '../../../src/protocol/trading.ts';
import { applyPositionFrame, initialPositions, reducePositions, type BalancesState, type PositionFrame, type PositionsEvent } from '../../../src/streams/accountBooks.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));
const bal = (wallet: Balance['wallet'], available: string): Balance => ({ wallet, coin: 'USDT', available, frozen: '0', total: available });
const pos = (id: string, pnl: string, closed = false): PositionFrame =>
  ({ id, symbol: 'BTCUSDT', contract: 'perp', side: 'long', qty: 1, margin: '10', unrealizedPnl: pnl, closed }) as unknown as PositionFrame;

function rig() {
  const http = createScriptedHttp();
  const frames = new Subject<InboundFrame>();
  const queue: (() => void)[] = [];
  const api = createApiClient({ http, onUnauthorized: () => {}, onNetworkError: () => {} });
  const deps = { api, frames$: frames, defer: (fn: () => void) => void queue.push(fn) };
  return { http, frames, deps, flush: () => queue.splice(0).forEach((fn) => fn()) };
}

describe('core account books (src/core/accountBooks.ts)', () => {
  it('balances: loaded on the first reader, live by balance frames, one request per burst of refreshes, dropped with the last reader', async () => {
    const r = rig();
    const resolvers: ((list: Balance[]) => void)[] = [];
    r.http.on('GET', '/wallet/balances', () => new Promise((res) => resolvers.push((list) => res(envelope(200, 'ok', list)))));
    const book = balancesBook(r.deps);
    expect(book.current()).toBeNull();
    const seen: BalancesState[] = [];
    const a = book.state$.subscribe((s) => seen.push(s));
    const b = book.state$.subscribe(() => {});
    await tick();
    expect(r.http.requests).toHaveLength(1);
    // A frame that beats the snapshot survives it (the ordering rule).
    r.frames.next({ type: 'balance', data: bal('perp', '5') });
    r.frames.next({ type: 'balance', data: { wallet: 'perp', coin: 'USDT', available: 'lots' } });
    resolvers[0]!([bal('perp', '1'), bal('fund', '2')]);
    await tick();
    expect(seen.at(-1)?.status).toBe('ready');
    expect([...(seen.at(-1)?.book.values() ?? [])].map((x) => x.available).sort()).toEqual(['2', '5']);
    expect(book.current()).toBe(seen.at(-1));
    book.refresh();
    book.refresh();
    r.flush();
    await tick();
    expect(r.http.requests).toHaveLength(2);
    a.unsubscribe();
    b.unsubscribe();
    expect(book.current()).toBeNull();
    resolvers[1]!([bal('perp', '999')]); // answer after the last reader left: ignored
    await tick();
    const c = book.state$.subscribe((s) => seen.push(s));
    expect(seen.at(-1)?.status).toBe('loading');
    expect(r.http.requests).toHaveLength(3);
    c.unsubscribe();
  });

  it('positions: a failed load says why and frames still apply; closed frames remove', async () => {
    const r = rig();
    r.http.on('GET', '/trade/positions', envelope(500, 'Server busy', null));
    const book = positionsBook(r.deps);
    const sub = book.state$.subscribe(() => {});
    await tick();
    expect(book.current()?.status).toBe('error');
    expect(book.current()?.error).toBe('Server busy');
    r.frames.next({ type: 'position', data: pos('p1', '1') });
    expect(book.current()?.book.map((p) => p.id)).toEqual(['p1']);
    r.frames.next({ type: 'position', data: pos('p1', '1', true) });
    expect(book.current()?.book).toEqual([]);
    sub.unsubscribe();
  });

  it('positions reducer: a frame after the latest request wins over its snapshot; closed positions never show', () => {
    const frame = fc.record({ id: fc.constantFrom('a', 'b', 'c'), pnl: fc.integer({ min: -9, max: 9 }).map(String), closed: fc.boolean() }).map((x) => pos(x.id, x.pnl, x.closed));
    const open = (p: PositionFrame): Position => applyPositionFrame([], p)[0]!;
    const event: fc.Arbitrary<PositionsEvent> = fc.oneof(
      fc.constant({ type: 'requested' as const }),
      fc.array(frame.filter((p) => !p.closed), { maxLength: 3 }).map((l) => ({ type: 'snapshot' as const, list: l.map(open) })),
      frame.map((item) => ({ type: 'frame' as const, item })),
      fc.constant({ type: 'failed' as const, msg: 'x' }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let s = initialPositions();
        let since: PositionFrame[] = [];
        for (const e of events) {
          s = reducePositions(s, e);
          if (e.type === 'requested') since = [];
          if (e.type === 'frame') since.push(e.item);
          const ids = s.book.map((p) => p.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of new Set(since.map((p) => p.id))) {
            const last = since.filter((p) => p.id === id).at(-1)!;
            const shown = s.book.find((p) => p.id === id);
            if (last.closed) expect(shown).toBeUndefined();
            else expect(shown?.unrealizedPnl).toBe(last.unrealizedPnl);
          }
        }
      }),
    );
  });

  it('the user streams hash the balance book while a reader holds it (and leave it out otherwise)', async () => {
    const r = rig();
    r.http.on('GET', '/wallet/balances', envelope(200, 'ok', [bal('spot', '3')]));
    const user = createUserStreams({ frames$: r.frames, api: r.deps.api, token$: of('t'), defer: r.deps.defer });
    expect(user.state().balanceBook).toBeUndefined();
    const sub = user.balances.state$.subscribe(() => {});
    await tick();
    expect(user.state().balanceBook).toEqual({ status: 'ready', rows: { 'spot|USDT': bal('spot', '3') }, error: undefined });
    r.frames.next({ type: 'balance', data: bal('spot', '4') });
    expect((user.state().balanceBook as { rows: Record<string, Balance> }).rows['spot|USDT']?.available).toBe('4');
    sub.unsubscribe();
    expect(user.state().balanceBook).toBeUndefined();
    user.stop();
  });
});
