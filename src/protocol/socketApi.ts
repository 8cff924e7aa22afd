import { z } from 'zod';
import { TRADING_PATHS } from './trading.ts';

/**
 * Orders over the user socket (`/api/ws/user`), in the style of Binance's WebSocket API: after
 * `auth`, the client sends `{id, method, params}` and gets ONE `{type:'response', id, code, msg,
 * data}` frame for it, where `code`, `msg` and `data` are exactly the envelope the HTTP route of
 * the method answers (same validation, per-account rate limits, error messages; the language is
 * the socket URL's `lang` query, else English). Requests of one socket may be answered out of
 * order: match them by `id`. `params` is the HTTP body of the route.
 */
export const SOCKET_METHODS = {
  'order.place': TRADING_PATHS.placeOrder,
  'order.cancel': TRADING_PATHS.cancelOrder,
  'order.edit': TRADING_PATHS.editOrder,
  'position.close': TRADING_PATHS.closePosition,
} as const;
export type SocketMethod = keyof typeof SOCKET_METHODS;

export const socketRequestSchema = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int().safe()]),
  method: z.string().min(1).max(64),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type SocketRequest = z.infer<typeof socketRequestSchema>;

/** The answer to one request; `id` is the request's (null when the request had none readable). */
export interface SocketResponse<T = unknown> {
  type: 'response';
  id: string | number | null;
  code: number;
  msg: string;
  data: T | null;
}

export const SOCKET_API_MSG = {
  badRequest: 'Bad request: expected {id, method, params}',
  unknownMethod: 'Unknown method',
} as const;
