import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/client.ts';
import { createScreenActors } from '../../../src/core/screenActors.ts';
import { createScreenMachines, type MachineRequest } from '../../../src/core/screenMachines.ts';
import type { TradingApi } from '../../../src/core/tradingApi.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import type { OrderRules } from '../../../src/machines/orderMachine.ts';
import { createScriptedHttp, envelope } from '../../../src/ports/fakes.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import type { KycStatusDto } from '../../../src/protocol/kyc.ts';
import { settle } from '../settle.ts';

/**
 * The core's screen machines are one declared table (issue 27, point 1): every row is built,
 * registered under its name for the `screen:<name>` intents, keyed, fed the user-socket frames it
 * follows, and stopped with its last holder, by the same code.
 */

const RULES: OrderRules = { minOrderQuantity: 0.01, maxOrderQuantity: 50, qtyStep: 0.01, minLever: 1, maxLever: 100, openingFeeRatio: 0.0004, tickSize: 0.1, pricePrecision: 1, qtyPrecision: 2 };
const orderReq = (symbol: string) => ({ name: 'order' as const, contract: 'perp' as const, input: { symbol, rules: RULES, newId: () => 'id' } });

/** One request per row of the table. */
const EVERY_ROW: MachineRequest[] = [
  { name: 'kyc' }, { name: 'compensation' }, { name: 'coupon' }, { name: 'deposit' }, { name: 'withdrawal' }, { name: 'addressBook' },
  { name: 'convert' }, { name: 'copyFollow' }, { name: 'copyUnfollow' }, { name: 'copyApply' },
  { name: 'close', contract: 'perp' }, { name: 'tpsl', contract: 'std' }, orderReq('BTCUSDT'),
];

function setup() {
  const http = createScriptedHttp();
  const frames = new Subject<InboundFrame>();
  const screens = createScreenActors();
  const deferred: (() => void)[] = [];
  const machines = createScreenMachines({
    api: createApiClient({ http, onUnauthorized: () => {}, onNetworkError: () => {} }),
    clock: new VirtualClock(1_000_000),
    userFrames$: frames,
    screens,
    // no trade request is made here: a flow that made one would fail the test
    tradingApi: () => new Proxy({}, { get: () => () => Promise.reject(new Error('unexpected trade request')) }) as TradingApi,
    defer: (fn) => void deferred.push(fn),
  });
  return { http, frames, screens, machines, runDeferred: () => deferred.splice(0).forEach((fn) => fn()) };
}

describe('screen machines: one declared table in the core', () => {
  it('every row starts an actor on request, registered under its name, the same one while it lives, stopped with its last holder', () => {
    const { machines, screens, runDeferred } = setup();
    for (const req of EVERY_ROW) {
      const actor = machines.get(req);
      expect(actor.getSnapshot().status, req.name).toBe('active');
      expect(screens.get(req.name), req.name).toBe(actor);
      expect(machines.get(req), req.name).toBe(actor);
      const releaseA = machines.retain(req, actor);
      const releaseB = machines.retain(req, actor);
      releaseA();
      runDeferred();
      expect(actor.getSnapshot().status, `${req.name} kept by its second holder`).toBe('active');
      releaseB();
      expect(actor.getSnapshot().status, `${req.name} stops after the current run, not at once`).toBe('active');
      runDeferred();
      expect(actor.getSnapshot().status, req.name).toBe('stopped');
      expect(screens.get(req.name), req.name).toBeUndefined();
    }
    expect(machines.live().size).toBe(0);
  });

  it('keys: a ticket per contract and symbol, a close and a TP/SL flow per contract, one of every other screen', () => {
    const { machines } = setup();
    const btc = machines.get(orderReq('BTCUSDT'));
    expect(machines.get(orderReq('ETHUSDT'))).not.toBe(btc);
    expect(machines.get({ name: 'close', contract: 'perp' })).not.toBe(machines.get({ name: 'close', contract: 'std' }));
    expect(machines.get({ name: 'tpsl', contract: 'perp' })).toBe(machines.get({ name: 'tpsl', contract: 'perp' }));
    expect([...machines.live().keys()].sort()).toEqual(['close:perp', 'close:std', 'order:perp:BTCUSDT', 'order:perp:ETHUSDT', 'tpsl:perp']);
    // the ticket's input reached its machine
    expect(btc.getSnapshot().context.symbol).toBe('BTCUSDT');
    machines.stop();
    expect(machines.live().size).toBe(0);
    expect(btc.getSnapshot().status).toBe('stopped');
  });

  it('the core feeds each row the user-socket frames it follows, and only while the actor lives', async () => {
    const { http, frames, machines, runDeferred } = setup();
    const review: KycStatusDto = { status: 'review', latest: null };
    http.on('GET', '/kyc/status', envelope(200, 'success', review));
    const kyc = machines.get({ name: 'kyc' });
    await settle();
    expect(kyc.getSnapshot().value).toBe('review');
    frames.next({ type: 'kyc', data: { status: 'verified', latest: null } } as InboundFrame);
    expect(kyc.getSnapshot().value).toBe('verified');
    // a frame of another kind reaches no one it does not concern
    const coupon = machines.get({ name: 'coupon' });
    const before = coupon.getSnapshot();
    frames.next({ type: 'kyc', data: { status: 'rejected', latest: null } } as InboundFrame);
    expect(coupon.getSnapshot()).toBe(before);
    expect(frames.observed).toBe(true);
    // released and stopped: its frame subscription ends with it
    machines.retain({ name: 'kyc' }, kyc)();
    machines.retain({ name: 'coupon' }, coupon)();
    runDeferred();
    expect(frames.observed).toBe(false);
  });
});
