import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../format/date.ts';
import { NOTIFICATION_OPEN_KEY, NOTIFICATION_READ_KEY, nextReadIntent } from '../../core/notificationCenter.ts';
import { initialNotifications, unreadLabel } from '../../streams/notifications.ts';
import { useViewState } from '../hooks/useViewState.ts';
import { useStream } from '../hooks/useStream.ts';
import { useAppCore } from './AppCoreProvider.tsx';
import './notifications.css';

/**
 * The header's bell (issue 26, Major 8): the unread count of the core's notification centre and,
 * on press, a non-modal dialog listing the notices (newest first) with Mark as read per notice,
 * Mark all as read and Load more. Focus moves into the panel when it opens and back to the bell
 * when it closes (Escape, the close button, a click outside). Desktop: a popover under the bell;
 * phone: a sheet under the top bar (notifications.css).
 */
export function NotificationBell() {
  const { t } = useTranslation('shell');
  const core = useAppCore();
  const center = core.streams.notifications;
  const state$ = useMemo(() => center.state$, [center]);
  const state = useStream(state$, initialNotifications());
  // The dialog and the marks are view intents (recorded; a replay shows and does what the user did).
  const [open, setOpen] = useViewState(NOTIFICATION_OPEN_KEY, false, (v) => typeof v === 'boolean');
  const markRead = (ids: readonly number[] | null): void => core.view.set(NOTIFICATION_READ_KEY, nextReadIntent(core.view.get(NOTIFICATION_READ_KEY), ids));
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const panelId = useId();

  const close = (refocus: boolean): void => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onDown = (e: MouseEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, setOpen]);

  const unread = state.unread;
  const label = unread > 0 ? t('notificationsUnread', { count: unread }) : t('notifications');
  const more = state.items.length < state.total;

  return (
    <div className="rf-bell" ref={root}>
      <button
        ref={button}
        type="button"
        className="rf-icon-btn rf-bell__button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="notify-bell"
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6z" fill="currentColor" />
          <path d="M9.5 19.5a2.5 2.5 0 0 0 5 0z" fill="currentColor" />
        </svg>
        {unread > 0 ? (
          <span className="rf-bell__badge" data-testid="notify-count" aria-hidden="true">
            {unreadLabel(unread)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div ref={panel} id={panelId} className="rf-bell__panel" role="dialog" aria-modal="false" aria-labelledby={titleId} tabIndex={-1} data-testid="notify-panel">
          <div className="rf-bell__head">
            <h2 id={titleId} className="rf-bell__title">
              {t('notifications')}
            </h2>
            <button type="button" className="rf-bell__action" disabled={unread === 0} onClick={() => markRead(null)} data-testid="notify-read-all">
              {t('markAllRead')}
            </button>
            <button type="button" className="rf-icon-btn" aria-label={t('closeNotifications')} onClick={() => close(true)}>
              <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M5 5l14 14M19 5 5 19" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          {state.status === 'error' && state.items.length === 0 ? (
            <p className="rf-bell__empty" role="alert">
              {t('notificationsLoadFailed')}
            </p>
          ) : state.items.length === 0 ? (
            <p className="rf-bell__empty" data-testid="notify-empty">
              {state.status === 'live' ? t('noNotifications') : '…'}
            </p>
          ) : (
            <ul className="rf-bell__list" data-testid="notify-list">
              {state.items.map((n) => (
                <li key={n.id} className={`rf-bell__item${n.readAt === null ? ' rf-bell__item--unread' : ''}`} data-testid={`notify-item-${n.id}`}>
                  <div className="rf-bell__item-head">
                    <h3 className="rf-bell__item-title">
                      {n.readAt === null ? <span className="rf-bell__dot" aria-label={t('unreadTag')} role="img" /> : null}
                      {n.title}
                    </h3>
                    <time className="rf-bell__time" dateTime={new Date(n.createdAt).toISOString()}>
                      {formatDateTime(n.createdAt)}
                    </time>
                  </div>
                  <p className="rf-bell__body">{n.body}</p>
                  {n.readAt === null ? (
                    <button type="button" className="rf-bell__action" onClick={() => markRead([n.id])} data-testid={`notify-read-${n.id}`}>
                      {t('markRead')}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <div className="rf-bell__foot">
            {more ? (
              <button type="button" className="rf-bell__action" onClick={() => center.loadMore()} data-testid="notify-more">
                {t('loadMoreNotifications')}
              </button>
            ) : (
              <span />
            )}
            <Link className="rf-bell__action" to="/my/settings/preference" onClick={() => close(false)}>
              {t('notificationSettings')}
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  );
}
