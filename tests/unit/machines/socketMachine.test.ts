import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../../src/machines/socketMachine.ts';
import { socketHarness } from './socketHarness.ts';

describe('socketMachine (market)', () => {
  it('connects on start and reports status', () => {
    const h = socketHarness();
    expect(h.state()).toBe('connecting');
    expect(h.factory.sockets).toHaveLength(1);
    expect(h.factory.last().url).toBe('/api/ws/market');
    h.factory.last().open();
    expect(h.state()).toBe('open');
    expect(h.actor.getSnapshot().context).toMatchObject({ connected: true, attempts: 0 });
  });

  it('pings every 35 s with Unix-seconds ts from the clock, only while open', () => {
    const h = socketHarness('market', null, 1_700_000_000_500);
    h.clock.increment(70_000);
    expect(h.sentOf(0)).toEqual([]); // not open yet: no pings
    h.factory.last().open();
    h.clock.increment(34_999);
    expect(h.sentOf(0)).toEqual([]);
    h.clock.increment(1);
    h.clock.increment(35_000);
    h.clock.increment(35_000);
    const pings = h.sentOf(0).filter((m) => m.action === 'ping');
    expect(pings.map((p) => p.ts)).toEqual([1_700_000_105, 1_700_000_140, 1_700_000_175]);
  });

  it('reconnects 10 s after a close and after an error, marking not connected', () => {
    const h = socketHarness();
    h.factory.last().open();
    h.factory.last().close(1006, 'gone');
    expect(h.state()).toBe('reconnecting');
    expect(h.actor.getSnapshot().context.connected).toBe(false);
    expect(h.factory.sockets[0]?.closedByApp).toBe(true);
    h.clock.increment(9_999);
    expect(h.factory.sockets).toHaveLength(1);
    h.clock.increment(1);
    expect(h.factory.sockets).toHaveLength(2);
    expect(h.state()).toBe('connecting');

    h.factory.last().error('boom');
    expect(h.state()).toBe('reconnecting');
    expect(h.actor.getSnapshot().context).toMatchObject({ connected: false, lastError: 'boom', attempts: 1 });
    expect(h.errors).toEqual(['boom']);
    // the close that a browser fires after an error is ignored (the connection was cleaned up)
    h.factory.sockets[1]?.close();
    h.clock.increment(10_000);
    expect(h.factory.sockets).toHaveLength(3);
  });

  it('resubscribes every topic after a reconnect, ref-counting subscribers', () => {
    const h = socketHarness();
    h.actor.send({ type: 'socket.subscribe', topics: ['btcusdt@depth'] }); // before open: remembered
    h.factory.last().open();
    expect(h.sentOf(0)).toEqual([{ action: 'subscribe', topics: ['btcusdt@depth'] }]);
    h.actor.send({ type: 'socket.subscribe', topics: ['btcusdt@trade', 'btcusdt@depth'] });
    expect(h.sentOf(0).at(-1)).toEqual({ action: 'subscribe', topics: ['btcusdt@trade'] });
    h.actor.send({ type: 'socket.subscribe', topics: ['all@ticker'] });
    h.actor.send({ type: 'socket.unsubscribe', topics: ['btcusdt@depth'] }); // one subscriber left
    expect(h.sentOf(0).at(-1)).toEqual({ action: 'subscribe', topics: ['all@ticker'] });
    h.actor.send({ type: 'socket.unsubscribe', topics: ['btcusdt@trade'] });
    expect(h.sentOf(0).at(-1)).toEqual({ action: 'unsubscribe', topics: ['btcusdt@trade'] });

    h.factory.last().close();
    h.clock.increment(10_000);
    h.factory.last().open();
    expect(h.sentOf(1)).toEqual([{ action: 'subscribe', topics: ['btcusdt@depth', 'all@ticker'] }]);
  });

  it('forwards parsed frames and drops non-JSON ones', () => {
    const h = socketHarness();
    h.factory.last().open();
    h.factory.last().frame({ type: 'ticker', symbol: 'BTCUSDT', last: 1 });
    h.factory.last().frame('not json');
    h.factory.last().frame('[1,2]');
    expect(h.frames).toEqual([{ type: 'ticker', symbol: 'BTCUSDT', last: 1 }]);
    expect(parseFrame('{"type":"pong","ts":1}')).toEqual({ type: 'pong', ts: 1 });
    expect(parseFrame('{"x":1}')).toBeNull();
  });

  it('socket.reconnectNow skips the remaining delay; socket.stop goes idle with no reconnect', () => {
    const h = socketHarness();
    h.factory.last().close();
    h.clock.increment(3_000);
    h.actor.send({ type: 'socket.reconnectNow' });
    expect(h.factory.sockets).toHaveLength(2);
    h.actor.send({ type: 'socket.stop' });
    expect(h.state()).toBe('idle');
    expect(h.factory.sockets[1]?.closedByApp).toBe(true);
    h.clock.increment(100_000);
    expect(h.factory.sockets).toHaveLength(2);
    h.actor.send({ type: 'socket.start' });
    expect(h.factory.sockets).toHaveLength(3);
  });
});

describe('socketMachine (user)', () => {
  it('waits idle without a token and connects when one arrives', () => {
    const h = socketHarness('user', null);
    expect(h.state()).toBe('idle');
    expect(h.factory.sockets).toHaveLength(0);
    h.actor.send({ type: 'socket.setToken', token: 'tk-1' });
    expect(h.factory.sockets).toHaveLength(1);
  });

  it('sends auth first on every open, before resubscribing', () => {
    const h = socketHarness('user', 'tk-1');
    h.actor.send({ type: 'socket.subscribe', topics: ['orders@user'] });
    h.factory.last().open();
    expect(h.sentOf(0)).toEqual([
      { action: 'auth', token: 'tk-1' },
      { action: 'subscribe', topics: ['orders@user'] },
    ]);
    h.clock.increment(35_000);
    expect(h.sentOf(0).at(-1)?.action).toBe('ping');
    h.factory.last().close();
    h.clock.increment(10_000);
    h.factory.last().open();
    expect(h.sentOf(1)[0]).toEqual({ action: 'auth', token: 'tk-1' });
  });

  it('does not reconnect after logout (token gone) or socket.stop', () => {
    const h = socketHarness('user', 'tk-1');
    h.factory.last().open();
    h.actor.send({ type: 'socket.setToken', token: null });
    expect(h.state()).toBe('idle');
    expect(h.factory.sockets[0]?.closedByApp).toBe(true);
    h.clock.increment(60_000);
    expect(h.factory.sockets).toHaveLength(1);

    h.actor.send({ type: 'socket.setToken', token: 'tk-2' });
    h.factory.last().close();
    expect(h.state()).toBe('reconnecting');
    h.actor.send({ type: 'socket.setToken', token: null });
    h.clock.increment(60_000);
    expect(h.state()).toBe('idle');
    expect(h.factory.sockets).toHaveLength(2);
  });
});
