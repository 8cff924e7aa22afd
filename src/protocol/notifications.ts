import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { HELP_LANGS } from './help.ts';
import type { NotifyModule } from './help.ts';

/**
 * In-app notifications (issue 26, Major 8): what the server records for an account event, pushes on
 * the user socket as a `notification` frame and mails when the event's module is on. The title and
 * body are written once, in the user's notification language (GET /api/notify/prefs), when the
 * notice is recorded; the app shows them as they are (docs/PROTOCOL.md "notification").
 */

/** The events that notify, each in one preference module (sysNotify / tradeNotify / eventNotify). */
export const NOTIFICATION_KINDS = [
  'passwordChanged',
  'withdrawalSubmitted',
  'withdrawalApproved',
  'withdrawalRejected',
  'depositCredited',
  'orderFilled',
  'liquidationWarning',
  'liquidation',
  'copyStopped',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Which switch of the preferences governs a kind: account and money events are system notices, positions trade, copy trading event. */
export const NOTIFICATION_MODULE: Readonly<Record<NotificationKind, NotifyModule>> = {
  passwordChanged: 'sysNotify',
  withdrawalSubmitted: 'sysNotify',
  withdrawalApproved: 'sysNotify',
  withdrawalRejected: 'sysNotify',
  depositCredited: 'sysNotify',
  orderFilled: 'tradeNotify',
  liquidationWarning: 'tradeNotify',
  liquidation: 'tradeNotify',
  copyStopped: 'eventNotify',
};

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  module: z.enum(['sysNotify', 'tradeNotify', 'eventNotify']),
  /** The language title and body were written in. */
  lang: z.enum(HELP_LANGS),
  title: z.string(),
  body: z.string(),
  /** What the app may link to (e.g. a withdrawal id, an order's symbol); strings only. */
  params: z.record(z.string(), z.string()),
  /** Null while unread. */
  readAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notify/list. */
export const notificationListQuery = pageQuerySchema.extend({
  unread: z.enum(['1', '0']).optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const NOTIFICATION_MSG = {
  badIds: 'Choose the notifications to mark as read',
  marked: 'Marked as read',
} as const;

/** POST /api/notify/read: mark these (the user's own; others are ignored) as read. */
export const notificationReadBody = z
  .object({
    ids: z.array(z.number({ error: NOTIFICATION_MSG.badIds }).int().positive(), { error: NOTIFICATION_MSG.badIds }).min(1, NOTIFICATION_MSG.badIds).max(100, NOTIFICATION_MSG.badIds),
  })
  .strict();
export type NotificationReadBody = z.input<typeof notificationReadBody>;

/** GET /api/notify/unread and the answer of both mark-read calls. */
export const unreadCountSchema = z.object({ unread: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/**
 * The user-socket frame: a new notice (`notification`) with the unread count after it, or only a
 * new count (`notification: null`, after a mark read in another tab).
 */
export const notificationFrameSchema = z.object({
  type: z.literal('notification'),
  data: z.object({ notification: notificationSchema.nullable(), unread: z.number().int().nonnegative() }),
});
export type NotificationFrame = z.infer<typeof notificationFrameSchema>;

export const NOTIFICATION_PATHS = {
  list: '/notify/list',
  unread: '/notify/unread',
  read: '/notify/read',
  readAll: '/notify/read-all',
} as const;
