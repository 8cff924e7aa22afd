import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createEventLog, type EventLog } from '../../../src/ports/eventLog.ts';
import { createRecordingPorts } from '../../../src/ports/recording.ts';
import { createRedactor } from '../../../src/ports/redact.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import { LOG_DB, openLogDb, readLoads, storeLog } from '../../../src/ports/logStore.ts';
import type { Ports } from '../../../src/ports/types.ts';

/**
 * The recording kept across reloads (issue 27, point 7) on an in-memory IndexedDB (fake-indexeddb;
 * the browser test, tests/e2e/bundleReload.spec.ts, uses Chromium's): what a page load appended is
 * there for the next load, the records from before the store started too; the stored bytes stay in
 * the budget; a logout deletes everything; secrets are redacted before they are stored.
 */
const clockAt = (start: number) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

// Frames that deflate poorly (a seeded pseudo-random pad), so the budget is reached.
let seed = 7;
const noise = (n: number) => {
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += (seed % 36).toString(36);
  }
  return out;
};
const fill = (log: EventLog, n: number, from = 0) => {
  for (let i = 0; i < n; i++) log.append('ws.in', { conn: 1, data: `{"type":"ticker","i":${from + i},"pad":"${noise(200)}"}` });
};

describe('the recording store', () => {
  it('keeps a load for the next one, with the records appended before it started', async () => {
    const idb = new IDBFactory();
    const c = clockAt(1_000_000);
    const first = createEventLog({ now: c.now });
    fill(first, 5); // recorded before the store is loaded (after the first paint)
    const s1 = await storeLog(first, { idb, load: 'a' });
    c.advance(100);
    fill(first, 3, 5);
    await s1.flush();
    await s1.close(); // the reload

    c.advance(1000);
    const second = createEventLog({ now: c.now });
    fill(second, 2);
    const s2 = await storeLog(second, { idb, load: 'b' });
    await s2.flush();
    const earlier = await s2.earlierLoads();
    expect(earlier).toHaveLength(1);
    expect(earlier[0]?.startedAt).toBe(1_000_000);
    expect(earlier[0]?.lastSeq).toBe(8);
    expect(earlier[0]?.records).toEqual(first.records());
    // both loads are in the database; this load is not an "earlier" one
    const db = await openLogDb(idb);
    expect((await readLoads(db)).map((l) => [l.load, l.records.length])).toEqual([['a', 8], ['b', 2]]);
    db.close();
    await s2.close();
  });

  it('seals pieces as the ring does and drops the oldest over the byte budget', async () => {
    const idb = new IDBFactory();
    const c = clockAt(2_000_000);
    const old = createEventLog({ now: c.now });
    const s1 = await storeLog(old, { idb, load: 'old', chunkBytes: 4096, maxBytes: 40_000 });
    for (let k = 0; k < 20; k++) {
      fill(old, 30, k * 30);
      await s1.flush();
    }
    await s1.close();
    c.advance(60_000);
    const log = createEventLog({ now: c.now });
    const s2 = await storeLog(log, { idb, load: 'new', chunkBytes: 4096, maxBytes: 40_000 });
    for (let k = 0; k < 20; k++) {
      fill(log, 30, k * 30);
      await s2.flush();
    }
    const db = await openLogDb(idb);
    const rows = (await new Promise<{ bytes: number; load: string; n: number }[]>((resolve) => {
      const r = db.transaction('rows').objectStore('rows').getAll();
      r.onsuccess = () => resolve(r.result as { bytes: number; load: string; n: number }[]);
    }));
    db.close();
    const total = rows.reduce((s, r) => s + r.bytes, 0);
    expect(total).toBeLessThanOrEqual(40_000);
    // the raw JSON was far over the budget: sealed pieces are deflated, and the oldest load went first
    expect(rows.some((r) => r.n >= 0)).toBe(true);
    const earlier = await s2.earlierLoads();
    expect(earlier.every((l) => l.records.length < 600)).toBe(true);
    // what is kept of a load is its newest records, in order, ending with its last one
    const kept = await readLoads(await openLogDb(idb));
    const mine = kept.find((l) => l.load === 'new');
    expect(mine?.records[mine.records.length - 1]?.seq).toBe(600);
    const seqs = mine?.records.map((r) => r.seq) ?? [];
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));
    await s2.close();
  });

  it('deletes every load at logout and stores nothing more of this one', async () => {
    const idb = new IDBFactory();
    const c = clockAt(3_000_000);
    const a = createEventLog({ now: c.now });
    fill(a, 4);
    const sa = await storeLog(a, { idb, load: 'a' });
    await sa.flush();
    await sa.close();
    const b = createEventLog({ now: c.now });
    const sb = await storeLog(b, { idb, load: 'b' });
    fill(b, 2);
    b.append('ui.intent', { actor: 'session', event: { type: 'user.logout' } });
    await sb.flush();
    fill(b, 3);
    await sb.flush();
    const db = await openLogDb(idb);
    expect(await readLoads(db)).toEqual([]);
    db.close();
    await sb.close();
    const next = createEventLog({ now: c.now });
    const sn = await storeLog(next, { idb, load: 'n' });
    expect(await sn.earlierLoads()).toEqual([]);
    await sn.close();
  });

  it('stores secrets as the placeholders the recording wrote, never the secret', async () => {
    const idb = new IDBFactory();
    const c = clockAt(4_000_000);
    const log = createEventLog({ now: c.now });
    const http = createScriptedHttp();
    const raw: Ports = { clock: { now: c.now, setTimeout: () => 0, clearTimeout: () => undefined }, http, socket: createScriptedSocketFactory(), storage: createMemoryStorage(), random: { id: () => 'r' } };
    const ports = createRecordingPorts(raw, log, createRedactor());
    ports.storage.set('token', 'tok-SECRET-123456');
    const store = await storeLog(log, { idb, load: 'x' });
    await store.flush();
    await store.close();
    const db = await openLogDb(idb);
    const text = JSON.stringify(await readLoads(db));
    db.close();
    expect(text).toContain('<redacted:token#1>');
    expect(text).not.toContain('tok-SECRET-123456');
    expect(LOG_DB).toBe('rft-recording');
  });
});
