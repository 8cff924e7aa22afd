// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import type { Notification } from '../../../src/protocol/notifications.ts';
import { NotificationBell } from '../../../src/ui/app/NotificationBell.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';

/**
 * The header's bell (issue 26, Major 8) over a REAL app core on scripted ports: the unread count
 * from GET /notify/unread, the list from GET /notify/list, a live `notification` frame raising the
 * count and topping the list, Mark as read and Mark all as read (the requests and the count), and
 * the dialog's focus handling (focus in on open, back to the bell on Escape).
 */

installClickClock();

const T = 1_700_000_000_000;
function n(id: number, title: string, readAt: number | null = null): Notification {
  return { id, kind: 'withdrawalSubmitted', module: 'sysNotify', lang: 'en', title, body: `${title} body`, params: {}, readAt, createdAt: T + id * 1000 };
}

function renderBell(list: Notification[], unread: number) {
  const posts: HttpRequest[] = [];
  const h = renderAssets({
    path: '/',
    screen: <NotificationBell />,
    script: (http) => {
      http.on('GET', '/notify/list', envelope(200, 'success', { list, total: list.length, page: 1, pageSize: 20 }));
      http.on('GET', '/notify/unread', envelope(200, 'success', { unread }));
      http.on('POST', '/notify/read', (req) => {
        posts.push(req);
        return envelope(200, 'Marked as read', { unread: unread - 1 });
      });
      http.on('POST', '/notify/read-all', (req) => {
        posts.push(req);
        return envelope(200, 'Marked as read', { unread: 0 });
      });
    },
  });
  return { ...h, posts };
}

describe('NotificationBell', () => {
  it('shows the unread count, lists the notices, follows frames and marks read', async () => {
    const h = renderBell([n(2, 'Withdrawal approved'), n(1, 'Deposit credited', T)], 1);
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(screen.getByTestId('notify-count').textContent).toBe('1');
    expect(bell.getAttribute('aria-expanded')).toBe('false');

    // a live notice raises the count (no request)
    h.push({ type: 'notification', data: { notification: n(3, 'Order filled'), unread: 2 }, });
    await waitFor(() => expect(screen.getByTestId('notify-count').textContent).toBe('2'));
    expect(screen.getByRole('button', { name: 'Notifications, 2 unread' })).toBe(bell);

    fireEvent.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(panel);
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual(['Order filled', 'Withdrawal approved', 'Deposit credited']);
    expect(within(items[0]!).getByRole('img', { name: 'Unread' })).toBeTruthy();
    expect(within(items[2]!).queryByRole('button', { name: 'Mark as read' })).toBeNull();

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(h.posts).toHaveLength(1));
    expect(h.posts[0]?.body).toEqual({ ids: [2] });
    await waitFor(() => expect(screen.getByTestId('notify-count').textContent).toBe('1'));
    expect(within(screen.getByTestId('notify-item-2')).queryByRole('button', { name: 'Mark as read' })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(h.posts).toHaveLength(2));
    expect(h.posts[1]?.path).toBe('/notify/read-all');
    await waitFor(() => expect(screen.queryByTestId('notify-count')).toBeNull());
    expect(screen.getByRole('button', { name: 'Notifications' })).toBe(bell);
    expect((within(panel).getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled).toBe(true);

    // Escape closes the dialog and gives the focus back to the bell
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(bell);
    h.core.stop();
  });

  it('says so when there is nothing, in the user language', async () => {
    const h = renderAssets({
      path: '/',
      lang: 'jp',
      screen: <NotificationBell />,
      script: (http) => {
        http.on('GET', '/notify/list', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 20 }));
        http.on('GET', '/notify/unread', envelope(200, 'success', { unread: 0 }));
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'お知らせ' }));
    expect(await screen.findByText('お知らせはまだありません')).toBeTruthy();
    h.core.stop();
  });
});
