import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/client.ts';
import { createScreenActors } from '../../../src/core/screenActors.ts';
import { createScreenMachines, jsonStable, tradePathOf, type ReplayScene } from '../../../src/core/screenMachines.ts';
import type { TradingApi } from '../../../src/core/tradingApi.ts';
import { createReplayHandle, replayLog } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { buildInspectorIndex, machineStates } from '../../../src/core/replay/inspect.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import type { OrderAck, PlaceOrderRequest } from '../../../src/machines/orderMachine.ts';
import { createScriptedHttp } from '../../../src/ports/fakes.ts';
import { placeholdersOfStandIns, standInSecrets } from '../../../src/ports/standIns.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import type { SymbolInfo } from '../../../src/protocol/market.ts';
import { settle } from '../settle.ts';

/**
 * Issue 27 point 2: headless replay drives the screen flows. A recorded `screen:<name>` intent with
 * no live actor gets one built from the core's table; the engaged flows are in `core.state()` (so in
 * the hash, the checkpoints, --diff and the inspector); their requests are made and answered from
 * the log; they stop when the replayed user leaves the screen; a log without screen intents hashes
 * as before.
 */
const ROOT = join(import.meta.dirname, '../../..');
const fixture = (name: string) => parseReplayText(readFileSync(join(ROOT, 'fixtures/sessions', `${name}.jsonl`), 'utf8'));
/** The values in order, a repeated one once per run (null: no flow). */
const runs = (values: unknown[]) => values.map((v) => JSON.stringify(v ?? null)).filter((v, i, all) => i === 0 || all[i - 1] !== v);
const pinned = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'fixtures/sessions', `${name}.expect.json`), 'utf8')) as { hash: string }).hash;

describe('screen flows in headless replay', () => {
  it('kyc-rejection-ui: the KYC form is built at its first intent, submits, goes to review and comes back rejected with the reason', async () => {
    const log = fixture('kyc-rejection-ui');
    const seqs = log.records.filter((r) => r.kind === 'ui.intent' && r.actor === 'screen:kyc').map((r) => r.seq);
    const r = await replayLog(log, { checkpointEvery: 1 });
    const at = (seq: number) => r.checkpoints.find((c) => c.seq === seq)?.state.screens;
    expect(at((seqs[0] ?? 0) - 1)).toBeUndefined();
    expect(at(seqs[0] ?? 0)?.kyc?.context).toMatchObject({ form: { country: 'DE' } });
    const values = runs(r.checkpoints.map((c) => c.state.screens?.kyc?.value));
    expect(values).toEqual(['null', '"unverified"', '"submitting"', '"review"', '"rejected"', 'null']);
    const rejected = r.checkpoints.find((c) => c.state.screens?.kyc?.value === 'rejected')?.state.screens?.kyc?.context as { status: { latest: { reason: string } } };
    expect(rejected.status.latest.reason).toBe('The information page photo is blurry');
    // The form's own requests were made (the status read at its start, the submit with the stand-in document number) and matched.
    expect(r.divergences).toEqual([]);
    expect(r.unissuedWrites).toBe(0);
    expect(r.screenMisses).toEqual([]);
    // Left for the help centre: the actor stopped, and the final state is the one pinned before screens joined the hash.
    expect(r.final.state.screens).toBeUndefined();
    expect(r.final.hash).toBe(pinned('kyc-rejection-ui'));
  });

  it('the trade screen ticket is built from the path and the recorded instrument list, fed its order frames by the core', async () => {
    const r = await replayLog(fixture('liquidation-ui'), { checkpointEvery: 1 });
    const values = runs(r.checkpoints.map((c) => c.state.screens?.['order:perp:BTCUSDT']?.value));
    expect(values).toEqual(['null', '"editing"', '"submitting"', '"filled"', '"editing"', 'null']);
    const ticket = r.checkpoints.find((c) => c.state.screens?.['order:perp:BTCUSDT'])?.state.screens?.['order:perp:BTCUSDT']?.context as { rules: { qtyStep: number }; newId?: unknown };
    expect(ticket.rules.qtyStep).toBe(0.001);
    expect(ticket).not.toHaveProperty('newId');
    expect(r.divergences).toEqual([]);
    expect(r.unissuedWrites).toBe(0);
  });

  it('the inspector rebuilds the flows at every record (the replay hash) and lists their states', async () => {
    const log = fixture('convert-expired-ui');
    const index = await buildInspectorIndex(log, { every: 25, hashEveryRecord: true });
    for (const h of index.result.hashes) expect(hashState(index.stateAt(h.seq)), `@${h.seq}`).toBe(h.hash);
    const requote = log.records.find((r) => r.kind === 'ui.intent' && (r.event as { type: string }).type === 'convert.requote');
    if (!requote) throw new Error('fixture without a re-quote');
    expect(machineStates(index.stateAt(requote.seq - 1))?.screens).toEqual({ convert: 'expired' });
    expect(index.changesAt(requote.seq).some((c) => c.path.startsWith('screens.convert'))).toBe(true);
  });

  it('every UI fixture ends on its pinned hash; logs without screen intents never have a screens section', async () => {
    for (const name of ['login-google-ui', 'orderbook-gap-ui', 'withdrawal-lock-ui', 'notifications-ui']) {
      const r = await replayLog(fixture(name), { checkpointEvery: 1 });
      expect(r.checkpoints.every((c) => c.state.screens === undefined), name).toBe(true);
      expect(r.final.hash, name).toBe(pinned(name));
    }
  });

  it('an intent the table cannot build an actor for is a screen miss; browser mode never builds', async () => {
    const log = fixture('liquidation-ui');
    // The ticket needs the trade screen's path: at '/' nothing can be built.
    const h = createReplayHandle({ ...log, records: log.records.filter((r) => r.kind !== 'ui.route') }, { path: '/' });
    await settle();
    const intent = log.records.find((r) => r.kind === 'ui.intent' && r.actor === 'screen:order');
    if (!intent) throw new Error('fixture without a ticket intent');
    expect(h.prepare(intent)).toBe(false);
    expect(h.deliver(intent)).toBe(false);
    expect(h.screenMisses[0]).toMatch(/screen:order has no actor for order.edit/);
    const browser = createReplayHandle(log, { path: '/mFutures/BTCUSDT' }, { screens: 'mounted' });
    expect(browser.prepare(intent)).toBe(false);
    expect(browser.core.machines.live().size).toBe(0);
    h.core.stop();
    browser.core.stop();
  });
});

describe('screen machines: the replay side of the table', () => {
  const INFO = { symbol: 'ETHUSDT', minOrderQuantity: 0.01, maxOrderQuantity: 100, qtyStep: 0.01, minLever: 1, maxLever: 5, openingFeeRatio: 0.0005, tickSize: 0.01, pricePrecision: 2, qtyPrecision: 2 } as SymbolInfo;
  function setup() {
    const frames = new Subject<InboundFrame>();
    const screens = createScreenActors();
    const placed: PlaceOrderRequest[] = [];
    const trading = { placeOrder: async (req: PlaceOrderRequest): Promise<OrderAck> => (placed.push(req), { orderId: 'o-1', status: 'pending' }) } as unknown as TradingApi;
    const machines = createScreenMachines({
      api: createApiClient({ http: createScriptedHttp(), onUnauthorized: () => {}, onNetworkError: () => {} }),
      clock: new VirtualClock(1_000_000),
      userFrames$: frames,
      screens,
      tradingApi: () => trading,
      newId: () => 'rand-1',
      defer: (fn) => fn(),
    });
    return { frames, screens, machines, placed };
  }
  const scene = (path: string, symbols: unknown = [INFO]): ReplayScene => ({ path, answer: (m, p) => (m === 'GET' && p === '/market/symbols' ? symbols : undefined) });

  it('createFor builds a row from a recorded intent (the ticket from the path and the instrument list), once; leave stops it', async () => {
    const { machines, frames, placed } = setup();
    const edit = { type: 'order.edit', patch: { type: 'market', qty: '0.5' } };
    expect(machines.createFor('order', edit, scene('/'))).toBe(false);
    expect(machines.createFor('order', edit, scene('/stdFuture/ETHUSDT', []))).toBe(false);
    expect(machines.createFor('nope', edit, scene('/stdFuture/ETHUSDT'))).toBe(false);
    expect(machines.createFor('order', edit, scene('/stdFuture/ETHUSDT'))).toBe(true);
    expect(machines.createFor('order', edit, scene('/stdFuture/ETHUSDT'))).toBe(false);
    expect([...machines.live().keys()]).toEqual(['order:std:ETHUSDT']);
    // Built, not engaged: not in the state until an intent reaches it.
    expect(machines.state()).toEqual({});
    expect(machines.intent('order', edit)).toBe(true);
    expect(machines.intent('order', { type: 'order.submit', market: { available: '1000', lastPrice: 2000 } } as { type: string })).toBe(true);
    await settle();
    expect(placed).toEqual([expect.objectContaining({ clientOrderId: 'rand-1', symbol: 'ETHUSDT', qty: '0.5', leverage: 5 })]);
    expect(machines.state()['order:std:ETHUSDT']?.value).toBe('pending');
    // The core feeds it the order frames of its contract (no screen does).
    frames.next({ type: 'order', data: { id: 'o-1', clientOrderId: 'rand-1', contract: 'perp', status: 'filled' } } as unknown as InboundFrame);
    expect(machines.state()['order:std:ETHUSDT']?.value).toBe('pending');
    frames.next({ type: 'order', data: { id: 'o-1', clientOrderId: 'rand-1', contract: 'std', status: 'filled' } } as unknown as InboundFrame);
    expect(machines.state()['order:std:ETHUSDT']?.value).toBe('filled');
    machines.leave();
    expect(machines.live().size).toBe(0);
    expect(machines.state()).toEqual({});
    expect(machines.intent('order', edit)).toBe(false);
  });

  it('a screen-held actor is engaged by its first intent; leaving its path takes it out of the state, not off the screen', () => {
    const { machines } = setup();
    const kyc = machines.get({ name: 'kyc' });
    const release = machines.retain({ name: 'kyc' }, kyc);
    expect(machines.state()).toEqual({});
    machines.engage(kyc);
    expect(Object.keys(machines.state())).toEqual(['kyc']);
    machines.leave();
    expect(machines.live().has('kyc')).toBe(true);
    expect(machines.state()).toEqual({});
    machines.engage(kyc);
    expect(Object.keys(machines.state())).toEqual(['kyc']);
    release();
    expect(machines.state()).toEqual({});
  });

  it('the close dialog hashes which position it is about, not the live position data', () => {
    const { machines } = setup();
    const position = { id: 'P1', symbol: 'ETHUSDT', contract: 'std', side: 'long', qty: 1, entryPrice: 2000, markPrice: 2001 };
    expect(machines.createFor('close', { type: 'close.open', position }, scene('/'))).toBe(true);
    machines.intent('close', { type: 'close.open', position, rules: { qtyPrecision: 2, qtyStep: 0.01, minOrderQuantity: 0.01, pricePrecision: 2, tickSize: 0.01 }, quick: false } as { type: string });
    const snap = machines.state()['close:std'];
    expect(snap?.value).toBe('editing');
    expect((snap?.context as { position: unknown }).position).toBe('P1');
  });

  it('jsonStable keeps data and drops functions, actor references and undefined; a file is its description', () => {
    const actorRef = { send: () => {}, getSnapshot: () => ({}) };
    const file = new File([new Uint8Array(5)], 'a.png', { type: 'image/png' });
    expect(jsonStable({ a: 1, f: () => 1, u: undefined, child: actorRef, list: [1, undefined, () => 2], file, n: Number.NaN, big: 10n, m: new Map([['k', 1]]) })).toEqual({
      a: 1,
      list: [1, null, null],
      file: { name: 'a.png', type: 'image/png', size: 5 },
      n: 'NaN',
      big: '10',
      m: [['k', 1]],
    });
  });

  it('trade paths name the contract and pair', () => {
    expect(tradePathOf('/mFutures/BTCUSDT')).toEqual({ contract: 'perp', pair: 'BTCUSDT' });
    expect(tradePathOf('/stdFuture/ETHUSDT?x=1')).toEqual({ contract: 'std', pair: 'ETHUSDT' });
    expect(tradePathOf('/mFutures')).toEqual({ contract: 'perp', pair: null });
    expect(tradePathOf('/my/settings/kyc')).toBeNull();
  });

  it('a redacted form secret replays as a stand-in that passes the form and compares as its placeholder', () => {
    const ev = { type: 'kyc.field', field: 'docNumber', value: '<redacted:secret#3>', other: '<redacted:password#1>' };
    const stood = standInSecrets(ev);
    expect(stood).toEqual({ ...ev, value: 'REDACTED-3' });
    expect(placeholdersOfStandIns({ body: { formData: [['docNumber', 'REDACTED-3'], ['firstName', 'Ada']] } })).toEqual({ body: { formData: [['docNumber', '<redacted:secret#3>'], ['firstName', 'Ada']] } });
  });
});
