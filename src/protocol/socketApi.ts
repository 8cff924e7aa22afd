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

/** The methods the server announces in its `authed` frame (`{type:'authed', userId, methods}`). */
export const SOCKET_METHOD_NAMES = Object.keys(SOCKET_METHODS) as SocketMethod[];

/** The `authed` frame of the user socket; `methods` lists the requests this server answers (absent on servers before issue 28). */
export interface SocketAuthed {
  type: 'authed';
  userId: number;
  methods?: SocketMethod[];
}

/** The method whose HTTP route is `path` (with or without the /api prefix), or null. */
export function socketMethodOfPath(path: string): SocketMethod | null {
  const full = path.startsWith('/api/') ? path : `/api${path}`;
  for (const m of SOCKET_METHOD_NAMES) if (SOCKET_METHODS[m] === full) return m;
  return null;
}

/** A `{id, method, params}` request as the app sends it (text frame), for the replay to match. */
export interface SocketRequestFrame {
  id: string | number;
  method: string;
  params: unknown;
}

const jsonObject = (text: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** The request in a text frame, or null when it is not a `{id, method, params?}` request. */
export function parseSocketRequest(text: string): SocketRequestFrame | null {
  if (!text.includes('"method"')) return null;
  const v = jsonObject(text);
  if (v === null || typeof v.method !== 'string' || (typeof v.id !== 'string' && typeof v.id !== 'number')) return null;
  return { id: v.id, method: v.method, params: v.params ?? {} };
}

const TYPE_FIRST = '{"type":"';
const RESPONSE_FIRST = '{"type":"response"';

/** The id of a text frame when it is a `{type:'response', id}` answer with an id, else null. */
export function socketResponseIdOf(text: string): string | number | null {
  // A frame written by JSON.stringify from an object whose first key is `type` (every frame the
  // servers send) names its type right at the start: a market frame is told apart without scanning
  // it (the replay asks this for every recorded frame: 148,000 of them in the inspector's hour; a
  // later duplicate `type` key is not looked for: no server writes one).
  if (text.startsWith(TYPE_FIRST) && !text.startsWith(RESPONSE_FIRST)) return null;
  if (!text.includes('"response"')) return null;
  const v = jsonObject(text);
  if (v === null || v.type !== 'response' || (typeof v.id !== 'string' && typeof v.id !== 'number')) return null;
  return v.id;
}

/** The same answer frame with another id (the replay hands a recorded answer to the request the app made). */
export function withResponseId(text: string, id: string | number): string {
  const v = jsonObject(text);
  return v === null ? text : JSON.stringify({ ...v, id });
}
