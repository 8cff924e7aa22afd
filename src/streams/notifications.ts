import type { Page } from '../protocol/envelope.ts';
import type { Notification } from '../protocol/notifications.ts';

/**
 * The notification centre's state (issue 26, Major 8): the notices loaded so far, newest first,
 * and the server's unread count. Pure: the frames and answers carry everything, time included.
 *
 * Invariants (tests/property/notifications.prop.test.ts):
 * - `items` holds each id once, ordered by (createdAt, id) descending;
 * - `unread` is never negative and never below the unread items held;
 * - a frame or page seen twice changes nothing the second time;
 * - after `markedAll` no held item is unread and `unread` is what the server said.
 */
export interface NotificationsState {
  status: 'idle' | 'loading' | 'live' | 'error';
  items: readonly Notification[];
  /** The server's count of unread notices (all of them, not only the loaded ones). */
  unread: number;
  /** How many notices the server has in all (from the last page). */
  total: number;
  /** Pages loaded (0 before the first answer). */
  pages: number;
  error: string | null;
}

export type NotificationsEvent =
  | { type: 'requested' }
  | { type: 'page'; page: Page<Notification> }
  /** GET /notify/unread answered. */
  | { type: 'unread'; unread: number }
  | { type: 'failed'; msg: string }
  /** A `notification` frame: a new notice (or null) and the unread count after it. */
  | { type: 'frame'; notification: Notification | null; unread: number }
  /** The server marked these read at `at` (its answer carries the count; absent: one less per id). */
  | { type: 'markedRead'; ids: readonly number[]; at: number; unread?: number }
  | { type: 'markedAll'; at: number; unread?: number }
  | { type: 'reset' };

export function initialNotifications(): NotificationsState {
  return { status: 'idle', items: [], unread: 0, total: 0, pages: 0, error: null };
}

const newestFirst = (a: Notification, b: Notification): number => b.createdAt - a.createdAt || b.id - a.id;

/** Merges `incoming` into `items` (an id already held is replaced), newest first. */
function merge(items: readonly Notification[], incoming: readonly Notification[]): Notification[] {
  const byId = new Map<number, Notification>();
  for (const n of items) byId.set(n.id, n);
  for (const n of incoming) byId.set(n.id, n);
  return [...byId.values()].sort(newestFirst);
}

const unreadHeld = (items: readonly Notification[]): number => items.reduce((n, x) => n + (x.readAt === null ? 1 : 0), 0);

/** The count to keep: the server's, but never below what the held items show. */
function count(items: readonly Notification[], server: number): number {
  return Math.max(0, Math.floor(server), unreadHeld(items));
}

export function reduceNotifications(s: NotificationsState, e: NotificationsEvent): NotificationsState {
  switch (e.type) {
    case 'requested':
      return s.status === 'loading' ? s : { ...s, status: 'loading', error: null };
    case 'page': {
      const items = merge(s.items, e.page.list);
      return { status: 'live', items, unread: count(items, s.unread), total: Math.max(e.page.total, items.length), pages: Math.max(s.pages, e.page.page), error: null };
    }
    case 'unread': {
      const unread = count(s.items, e.unread);
      return unread === s.unread ? s : { ...s, unread };
    }
    case 'failed':
      return { ...s, status: 'error', error: e.msg };
    case 'frame': {
      if (e.notification === null) {
        // A count after a mark read elsewhere: held items the count says cannot be unread stay as they are.
        return e.unread === s.unread ? s : { ...s, unread: count(s.items, e.unread) };
      }
      const had = s.items.some((x) => x.id === e.notification?.id);
      const items = merge(s.items, [e.notification]);
      const unread = count(items, e.unread);
      if (had && unread === s.unread && items.every((x, i) => x === s.items[i])) return s;
      return { ...s, items, unread, total: had ? s.total : s.total + 1 };
    }
    case 'markedRead': {
      const ids = new Set(e.ids);
      let changed = 0;
      const items = s.items.map((x) => {
        if (!ids.has(x.id) || x.readAt !== null) return x;
        changed += 1;
        return { ...x, readAt: e.at };
      });
      return { ...s, items, unread: count(items, e.unread ?? s.unread - changed) };
    }
    case 'markedAll': {
      const items = s.items.map((x) => (x.readAt === null ? { ...x, readAt: e.at } : x));
      return { ...s, items, unread: count(items, e.unread ?? 0) };
    }
    case 'reset':
      return initialNotifications();
  }
}

/** The unread count the bell shows ('99+' above 99). */
export function unreadLabel(n: number): string {
  return n > 99 ? '99+' : String(n);
}
