import { Observable } from 'rxjs';
import { z } from 'zod';
import type { ApiClient } from '../api/client.ts';
import { errorMessage } from '../api/client.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import type { ViewStateStore, ViewValue } from './viewState.ts';
import { NOTIFICATION_PATHS, notificationFrameSchema, notificationSchema, unreadCountSchema } from '../protocol/notifications.ts';
import { initialNotifications, reduceNotifications } from '../streams/notifications.ts';
import type { NotificationsEvent, NotificationsState } from '../streams/notifications.ts';

/** Notices per page of the list panel. */
export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * The notification centre of the core (issue 26, Major 8): the bell's unread count and the list
 * panel's notices. Its state is server truth, like the KYC / voucher streams: every 200 answer of
 * GET /notify/list, GET /notify/unread, POST /notify/read and /notify/read-all (seen through the
 * core's Http tap, or delivered by the headless replay for a request only a screen made) and every
 * `notification` frame of the user socket update it, reader or not, so the browser and the
 * headless replay of one log reach the same state. A reader (the bell) makes the requests: the
 * first page when it subscribes with a session and on every login; logout empties it. Nothing is
 * optimistic: a mark read shows when the server answered.
 */
export interface NotificationCenter {
  /** The current state at once, then every change. */
  state$: Observable<NotificationsState>;
  /** POST /notify/read for these ids. */
  markRead(ids: readonly number[]): void;
  /** POST /notify/read-all. */
  markAllRead(): void;
  /** Loads the next page, if the server has more. */
  loadMore(): void;
  /** A 200 answer of a REST call (the core's Http tap and the headless replay feed it). */
  observeAnswer(method: string, path: string, data: unknown, body: unknown): void;
  /** What replay hashes: null until anything was loaded or pushed (so older logs hash as before). */
  current(): NotificationsState | null;
  stop(): void;
}

export interface NotificationCenterDeps {
  api: ApiClient;
  frames$: Observable<InboundFrame>;
  token$: Observable<string | null>;
  /** Time of a mark read (the core's clock, at the answer). */
  now: () => number;
}

const pageSchema = z.object({ list: z.array(notificationSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
const readBodySchema = z.object({ ids: z.array(z.number()) });

export function createNotificationCenter(deps: NotificationCenterDeps): NotificationCenter {
  let state = initialNotifications();
  let token: string | null = null;
  let generation = 0;
  const listeners = new Set<(s: NotificationsState) => void>();

  const dispatch = (e: NotificationsEvent): void => {
    const next = reduceNotifications(state, e);
    if (next === state) return;
    state = next;
    for (const fn of [...listeners]) fn(state);
  };

  /** The requests of a reader; their answers arrive through {@link NotificationCenter.observeAnswer}. */
  const loadPage = (page: number): void => {
    if (listeners.size === 0 || token === null) return;
    const gen = generation;
    dispatch({ type: 'requested' });
    const failed = (e: unknown): void => {
      if (gen === generation) dispatch({ type: 'failed', msg: errorMessage(e) });
    };
    deps.api.get<unknown>(NOTIFICATION_PATHS.list, { page, pageSize: NOTIFICATION_PAGE_SIZE }).catch(failed);
    if (page === 1) deps.api.get<unknown>(NOTIFICATION_PATHS.unread).catch(failed);
  };

  const subs = [
    deps.token$.subscribe((t) => {
      if (t === token) return;
      token = t;
      generation += 1;
      dispatch({ type: 'reset' });
      loadPage(1);
    }),
    deps.frames$.subscribe((f) => {
      if (f.type !== 'notification') return;
      const parsed = notificationFrameSchema.safeParse(f);
      if (parsed.success) dispatch({ type: 'frame', notification: parsed.data.data.notification, unread: parsed.data.data.unread });
    }),
  ];

  // A failed mark read leaves the state as the server last said; the user may press again.
  const ignore = (): void => undefined;

  return {
    state$: new Observable<NotificationsState>((sub) => {
      const fn = (s: NotificationsState) => sub.next(s);
      const first = listeners.size === 0;
      listeners.add(fn);
      if (first && state.pages === 0) loadPage(1);
      sub.next(state);
      return () => {
        listeners.delete(fn);
      };
    }),
    markRead(ids) {
      if (token === null || ids.length === 0) return;
      deps.api.post(NOTIFICATION_PATHS.read, { ids: [...ids] }).catch(ignore);
    },
    markAllRead() {
      if (token === null) return;
      deps.api.post(NOTIFICATION_PATHS.readAll, {}).catch(ignore);
    },
    loadMore() {
      if (state.status === 'loading' || state.items.length >= state.total) return;
      loadPage(state.pages + 1);
    },
    observeAnswer(method, path, data, body) {
      if (!path.startsWith('/notify/')) return;
      if (method === 'GET' && path === NOTIFICATION_PATHS.list) {
        const p = pageSchema.safeParse(data);
        if (p.success) dispatch({ type: 'page', page: p.data });
        return;
      }
      const u = unreadCountSchema.safeParse(data);
      if (!u.success) return;
      if (method === 'GET' && path === NOTIFICATION_PATHS.unread) dispatch({ type: 'unread', unread: u.data.unread });
      else if (method === 'POST' && path === NOTIFICATION_PATHS.readAll) dispatch({ type: 'markedAll', at: deps.now(), unread: u.data.unread });
      else if (method === 'POST' && path === NOTIFICATION_PATHS.read) {
        const b = readBodySchema.safeParse(body);
        dispatch({ type: 'markedRead', ids: b.success ? b.data.ids : [], at: deps.now(), unread: u.data.unread });
      }
    },
    current: () => (state.pages === 0 && state.items.length === 0 && state.unread === 0 ? null : state),
    stop() {
      for (const s of subs) s.unsubscribe();
      listeners.clear();
    },
  };
}

/** The view key whose changes are the user's "mark read" intents: `{ n, ids }` (ids null = all). */
export const NOTIFICATION_READ_KEY = 'notifications.read';
/** The view key of the bell's dialog (open or not). */
export const NOTIFICATION_OPEN_KEY = 'notifications.open';

/** The next "mark read" intent after `current` (a counter, so marking all twice is two intents). */
export function nextReadIntent(current: ViewValue | undefined, ids: readonly number[] | null): ViewValue {
  const n = typeof current === 'object' && current !== null && !Array.isArray(current) && typeof (current as { n?: unknown }).n === 'number' ? ((current as { n: number }).n + 1) : 1;
  return { n, ids: ids === null ? null : [...ids] };
}

/**
 * Performs every new "mark read" intent of the view store (set by the bell, or applied by a replay
 * from the log) with the centre's request, so a replay makes the same POST the user's click made.
 */
export function followNotificationReads(view: ViewStateStore, center: NotificationCenter): { unsubscribe(): void } {
  let last: number | null = null;
  return view.changes$.subscribe((all) => {
    const v = all[NOTIFICATION_READ_KEY];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
    const { n, ids } = v as { n?: unknown; ids?: unknown };
    if (typeof n !== 'number' || n === last) return;
    last = n;
    if (ids === null) center.markAllRead();
    else if (Array.isArray(ids)) center.markRead(ids.filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0).slice(0, 100));
  });
}
