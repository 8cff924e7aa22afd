import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Notification } from '../../src/protocol/notifications.ts';
import { initialNotifications, reduceNotifications, unreadLabel } from '../../src/streams/notifications.ts';
import type { NotificationsEvent, NotificationsState } from '../../src/streams/notifications.ts';

/**
 * The notification centre's reducer (src/streams/notifications.ts, issue 26 Major 8) over random
 * sequences of pages, frames, marks and resets: items are unique and newest first, the count is
 * never negative nor below the unread items held, replaying an event is a no-op, and after
 * "mark all" nothing held is unread.
 */

const notice = fc.record({
  id: fc.integer({ min: 1, max: 30 }),
  createdAt: fc.integer({ min: 0, max: 20 }),
  readAt: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
}).map(({ id, createdAt, readAt }): Notification => ({
  id, kind: 'orderFilled', module: 'tradeNotify', lang: 'en', title: `t${id}`, body: `b${id}`, params: {}, readAt, createdAt,
}));

const event: fc.Arbitrary<NotificationsEvent> = fc.oneof(
  fc.constant<NotificationsEvent>({ type: 'requested' }),
  fc.record({ list: fc.array(notice, { maxLength: 6 }), page: fc.integer({ min: 1, max: 3 }) }).map(
    ({ list, page }): NotificationsEvent => ({ type: 'page', page: { list, total: list.length + 3, page, pageSize: 20 } }),
  ),
  fc.integer({ min: 0, max: 40 }).map((unread): NotificationsEvent => ({ type: 'unread', unread })),
  fc.record({ notification: fc.option(notice, { nil: null }), unread: fc.integer({ min: 0, max: 40 }) }).map((d): NotificationsEvent => ({ type: 'frame', ...d })),
  fc.record({ ids: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }), at: fc.integer({ min: 0, max: 99 }), unread: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }) }).map(
    ({ ids, at, unread }): NotificationsEvent => (unread === undefined ? { type: 'markedRead', ids, at } : { type: 'markedRead', ids, at, unread }),
  ),
  fc.record({ at: fc.integer({ min: 0, max: 99 }), unread: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }) }).map(
    ({ at, unread }): NotificationsEvent => (unread === undefined ? { type: 'markedAll', at } : { type: 'markedAll', at, unread }),
  ),
  fc.constant<NotificationsEvent>({ type: 'failed', msg: 'Error' }),
  fc.constant<NotificationsEvent>({ type: 'reset' }),
);

function checkInvariants(s: NotificationsState): void {
  const ids = s.items.map((x) => x.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (let i = 1; i < s.items.length; i += 1) {
    const a = s.items[i - 1]!;
    const b = s.items[i]!;
    expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id)).toBe(true);
  }
  expect(Number.isInteger(s.unread)).toBe(true);
  expect(s.unread).toBeGreaterThanOrEqual(s.items.filter((x) => x.readAt === null).length);
  expect(s.total).toBeGreaterThanOrEqual(0);
}

describe('reduceNotifications', () => {
  it('keeps its invariants over any sequence of events', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let s = initialNotifications();
        for (const e of events) {
          s = reduceNotifications(s, e);
          checkInvariants(s);
          if (e.type === 'markedAll') expect(s.items.every((x) => x.readAt !== null)).toBe(true);
          if (e.type === 'markedRead') for (const id of e.ids) expect(s.items.find((x) => x.id === id)?.readAt ?? 0).not.toBeNull();
          if (e.type === 'reset') expect(s).toEqual(initialNotifications());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a frame, a page or a mark seen twice changes nothing the second time', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), event, (before, e) => {
        let s = initialNotifications();
        for (const x of before) s = reduceNotifications(s, x);
        const once = reduceNotifications(s, e);
        const twice = reduceNotifications(once, e);
        expect(twice).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });

  it('a frame with a new notice tops the list and counts it', () => {
    let s = reduceNotifications(initialNotifications(), { type: 'page', page: { list: [], total: 0, page: 1, pageSize: 20 } });
    const fresh: Notification = { id: 9, kind: 'depositCredited', module: 'sysNotify', lang: 'en', title: 'x', body: 'y', params: {}, readAt: null, createdAt: 5 };
    s = reduceNotifications(s, { type: 'frame', notification: fresh, unread: 1 });
    expect(s.items[0]).toBe(fresh);
    expect([s.unread, s.total]).toEqual([1, 1]);
    expect(unreadLabel(1)).toBe('1');
    expect(unreadLabel(100)).toBe('99+');
  });
});
