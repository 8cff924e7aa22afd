import { describe, expect, it } from 'vitest';
import { BehaviorSubject, of, Subject } from 'rxjs';
import { createApiClient } from '../../../src/api/client.ts';
import { createPositionPrefs, parsePositionPrefs } from '../../../src/core/positionPrefs.ts';
import { createUserStreams, type TradingAccountState } from '../../../src/core/userStreams.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import { createMemoryStorage, createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';

/**
 * The core side of the positions panel (issue 14): the account panel's histories page beyond the
 * first 50 rows ('Load more' appends the next page, a reload keeps every page loaded), and the
 * per-user close confirmations kept on the storage port.
 */

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('trading account histories page beyond 50', () => {
  it('loads the next page on loadMore, says when there is more, and a reload keeps the pages', async () => {
    const http = createScriptedHttp();
    const rows = Array.from({ length: 120 }, (_, i) => ({ id: `o${120 - i}`, symbol: 'BTCUSDT', contract: 'perp' }));
    for (const path of ['/trade/orders/history', '/trade/fills', '/wallet/ledger']) {
      http.on('GET', path, (req) => {
        const q = req.query as { page: number; pageSize: number };
        const list = rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
        return envelope(200, 'ok', { list, total: rows.length, page: q.page, pageSize: q.pageSize });
      });
    }
    http.on('GET', '/wallet/balances', envelope(200, 'ok', []));
    http.on('GET', '/trade/positions', envelope(200, 'ok', []));
    http.on('GET', '/trade/orders/open', envelope(200, 'ok', { list: [], total: 0, page: 1, pageSize: 50 }));
    const api = createApiClient({ http, onUnauthorized: () => {}, onNetworkError: () => {} });
    const frames = new Subject<InboundFrame>();
    const user = createUserStreams({ api, frames$: frames, token$: of('t'), defer: (fn) => void Promise.resolve().then(fn) });
    let s: TradingAccountState | null = null;
    const sub = user.trading$('perp').subscribe((v) => (s = v));
    await tick();
    expect(s!.orderHistory).toHaveLength(50);
    expect(s!.more?.orderHistory).toBe(true);
    user.loadMoreTrading('perp', 'orderHistory');
    await tick();
    expect(s!.orderHistory).toHaveLength(100);
    expect((s!.orderHistory as { id: string }[]).map((o) => o.id)).toEqual(rows.slice(0, 100).map((r) => r.id));
    user.loadMoreTrading('perp', 'orderHistory');
    await tick();
    expect(s!.orderHistory).toHaveLength(120);
    expect(s!.more?.orderHistory).toBe(false);
    // nothing more to load: no request
    const before = http.requests.length;
    user.loadMoreTrading('perp', 'orderHistory');
    await tick();
    expect(http.requests.length).toBe(before);
    // the other lists are still on their first page
    expect(s!.fills).toHaveLength(50);
    // a reload (after an order frame) keeps the three pages
    user.refreshTrading('perp');
    await tick();
    await tick();
    expect(s!.orderHistory).toHaveLength(120);
    expect(s!.fills).toHaveLength(50);
    sub.unsubscribe();
    user.stop();
  });
});

describe('position confirmations (src/core/positionPrefs.ts)', () => {
  it('ask by default, per user, stored on the storage port, and back on when set', () => {
    const storage = createMemoryStorage();
    const user$ = new BehaviorSubject<number | null>(null);
    const prefs = createPositionPrefs({ storage, userId$: user$ });
    expect(prefs.get()).toEqual({ confirmClose: true, confirmCloseAll: true });
    prefs.set({ confirmClose: false }); // no user yet: ignored
    expect(prefs.get().confirmClose).toBe(true);
    user$.next(7);
    prefs.set({ confirmClose: false });
    expect(prefs.get()).toEqual({ confirmClose: false, confirmCloseAll: true });
    expect(JSON.parse(storage.get('position_confirm:7') ?? '{}')).toEqual({ confirmClose: false, confirmCloseAll: true });
    user$.next(8); // another user asks
    expect(prefs.get().confirmClose).toBe(true);
    user$.next(7);
    expect(prefs.get().confirmClose).toBe(false);
    prefs.set({ confirmClose: true });
    expect(prefs.get().confirmClose).toBe(true);
    user$.next(null);
    expect(prefs.get()).toEqual({ confirmClose: true, confirmCloseAll: true });
    prefs.stop();
    expect(parsePositionPrefs('not json')).toEqual({ confirmClose: true, confirmCloseAll: true });
    expect(parsePositionPrefs('{"confirmCloseAll":false}')).toEqual({ confirmClose: true, confirmCloseAll: false });
  });
});
