import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { createApiClient } from '../../../src/api/client.ts';
import { createLiveQueries, type Load } from '../../../src/core/liveQuery.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import { createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

function rig() {
  const http = createScriptedHttp();
  let n = 0;
  http.on('GET', '/vouchers', () => envelope(200, 'ok', { n: ++n }));
  const frames = new Subject<InboundFrame>();
  const queue: (() => void)[] = [];
  const api = createApiClient({ http, onUnauthorized: () => {}, onNetworkError: () => {} });
  const q = createLiveQueries({ api, userFrames$: frames, defer: (fn) => void queue.push(fn) });
  return { http, frames, q, flush: () => queue.splice(0).forEach((fn) => fn()) };
}

describe('core live queries', () => {
  it('asks on the first reader, once per burst of matching frames and reloads, and stops with the last reader', async () => {
    const r = rig();
    const live = r.q.get<{ n: number }>('/vouchers', { page: 1 }, ['voucher']);
    const seen: Load<{ n: number }>[] = [];
    const sub = live.load$.subscribe((l) => seen.push(l));
    expect(seen).toEqual([{ status: 'loading' }]);
    await tick();
    expect(seen.at(-1)).toEqual({ status: 'ready', data: { n: 1 } });
    r.frames.next({ type: 'voucher' });
    r.frames.next({ type: 'voucher' });
    r.frames.next({ type: 'balance' }); // not a reload trigger
    live.reload();
    r.flush();
    await tick();
    expect(r.http.requests.map((x) => x.query)).toEqual([{ page: 1 }, { page: 1 }]);
    expect(seen.at(-1)).toEqual({ status: 'ready', data: { n: 2 } });
    sub.unsubscribe();
    r.frames.next({ type: 'voucher' });
    r.flush();
    expect(r.http.requests).toHaveLength(2);
  });

  it('a stale answer never replaces a newer one', async () => {
    const r = rig();
    const resolvers: ((v: unknown) => void)[] = [];
    r.http.on('GET', '/vouchers', () => new Promise((res) => resolvers.push((d) => res(envelope(200, 'ok', d)))));
    const live = r.q.get<string>('/vouchers', {}, ['voucher']);
    const seen: Load<string>[] = [];
    live.load$.subscribe((l) => seen.push(l));
    live.reload();
    r.flush();
    await tick();
    expect(resolvers).toHaveLength(2);
    resolvers[1]!('new');
    await tick();
    resolvers[0]!('old');
    await tick();
    expect(seen.at(-1)).toEqual({ status: 'ready', data: 'new' });
  });
});
