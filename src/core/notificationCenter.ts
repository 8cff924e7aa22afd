import { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import { errorMessage } from '../api/client.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import type { Page } from '../protocol/envelope.ts';
import { NOTIFICATION_PATHS, notificationFrameSchema, unreadCountSchema } from '../protocol/notifications.ts';
import type { Notification } from '../protocol/notifications.ts';
import { initialNotifications, reduceNotifications } from '../streams/notifications.ts';
import type { NotificationsEvent, NotificationsState } from '../streams/notifications.ts';

/** Notices per page of the list panel. */
export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * The notification centre of the core (issue 26, Major 8): the bell's unread count and the list
 * panel's notices, from GET /notify/list + /notify/unread (through the recorded Http port) and
 * live `notification` frames of the user socket. Loaded when its first reader subscribes while a
 * session exists, again on every login, emptied on logout; a reader-less centre holds nothing and
 * makes no request (so a headless replay of a log recorded before it hashes as before).
 */
export interface NotificationCenter {
  /** The current state at once, then every change. */
  state$: Observable<NotificationsState>;
  /** Marks these read (optimistic; the server's count follows). */
  markRead(ids: readonly number[]): void;
  markAllRead(): void;
  /** Loads the next page, if the server has more. */
  loadMore(): void;
  /** The state while a reader holds it, else null (what replay hashes). */
  current(): NotificationsState | null;
  stop(): void;
}

export interface NotificationCenterDeps {
  api: ApiClient;
  frames$: Observable<InboundFrame>;
  token$: Observable<string | null>;
  /** Time of a mark read (the core's clock). */
  now: () => number;
}

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

  const loadPage = (page: number): void => {
    if (listeners.size === 0 || token === null) return;
    const gen = generation;
    dispatch({ type: 'requested' });
    Promise.all([
      deps.api.get<Page<Notification>>(NOTIFICATION_PATHS.list, { page, pageSize: NOTIFICATION_PAGE_SIZE }),
      deps.api.get<unknown>(NOTIFICATION_PATHS.unread),
    ]).then(
      ([list, unread]) => {
        if (gen !== generation) return;
        const u = unreadCountSchema.safeParse(unread);
        dispatch({ type: 'page', page: list, unread: u.success ? u.data.unread : 0 });
      },
      (e: unknown) => gen === generation && dispatch({ type: 'failed', msg: errorMessage(e) }),
    );
  };
  const restart = (): void => {
    generation += 1;
    dispatch({ type: 'reset' });
    loadPage(1);
  };

  const subs = [
    deps.token$.subscribe((t) => {
      if (t === token) return;
      token = t;
      if (listeners.size > 0) restart();
    }),
    deps.frames$.subscribe((f) => {
      if (f.type !== 'notification' || listeners.size === 0) return;
      const parsed = notificationFrameSchema.safeParse(f);
      if (parsed.success) dispatch({ type: 'frame', notification: parsed.data.data.notification, unread: parsed.data.data.unread });
    }),
  ];

  const answer = (gen: number, p: Promise<unknown>, after: (unread: number) => NotificationsEvent): void => {
    p.then(
      (data) => {
        const u = unreadCountSchema.safeParse(data);
        if (gen === generation && u.success) dispatch(after(u.data.unread));
      },
      // The failed mark is undone by reloading what the server holds.
      () => gen === generation && restart(),
    );
  };

  return {
    state$: new Observable<NotificationsState>((sub) => {
      const fn = (s: NotificationsState) => sub.next(s);
      const first = listeners.size === 0;
      listeners.add(fn);
      if (first) restart();
      sub.next(state);
      return () => {
        listeners.delete(fn);
        if (listeners.size > 0) return;
        generation += 1;
        state = initialNotifications();
      };
    }),
    markRead(ids) {
      if (token === null || ids.length === 0) return;
      const at = deps.now();
      dispatch({ type: 'markedRead', ids, at });
      answer(generation, deps.api.post(NOTIFICATION_PATHS.read, { ids: [...ids] }), (unread) => ({ type: 'markedRead', ids, at, unread }));
    },
    markAllRead() {
      if (token === null) return;
      const at = deps.now();
      dispatch({ type: 'markedAll', at });
      answer(generation, deps.api.post(NOTIFICATION_PATHS.readAll, {}), (unread) => ({ type: 'markedAll', at, unread }));
    },
    loadMore() {
      if (state.status === 'loading' || state.items.length >= state.total) return;
      loadPage(state.pages + 1);
    },
    current: () => (listeners.size > 0 ? state : null),
    stop() {
      for (const s of subs) s.unsubscribe();
      listeners.clear();
    },
  };
}
