import { z } from 'zod';

/**
 * The shapes of the intents a log may carry, per actor. A recorded log is external data: the
 * driver checks each `ui.intent` here before sending it, so a malformed or hand-edited log is
 * reported as a skipped record instead of crashing a machine (e.g. `socket.subscribe` without a
 * topic list).
 */
const socketIntent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('socket.subscribe'), topics: z.array(z.string()) }),
  z.object({ type: z.literal('socket.unsubscribe'), topics: z.array(z.string()) }),
  z.object({ type: z.literal('socket.start') }),
  z.object({ type: z.literal('socket.stop') }),
  z.object({ type: z.literal('socket.reconnectNow') }),
  z.object({ type: z.literal('socket.setToken'), token: z.string().nullable() }),
]);

const sessionIntent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user.checkAuthType'), email: z.string(), password: z.string() }),
  z.object({ type: z.literal('user.sendCode') }),
  z.object({ type: z.literal('user.login'), code: z.string() }),
  z.object({ type: z.literal('user.cancel') }),
  z.object({ type: z.literal('user.logout') }),
  z.object({ type: z.literal('user.resetToken') }),
  z.object({ type: z.literal('user.fetchInfo') }),
  z.object({ type: z.literal('user.loggedInWithToken'), token: z.string() }),
  z.object({ type: z.literal('session.unauthorized') }),
]);

const INTENT_SCHEMAS = { session: sessionIntent, market: socketIntent, user: socketIntent } as const;

/** True when `event` is an event the named actor accepts, with the fields it needs. */
export function isWellFormedIntent(actor: keyof typeof INTENT_SCHEMAS, event: unknown): boolean {
  return INTENT_SCHEMAS[actor].safeParse(event).success;
}
