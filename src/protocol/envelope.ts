import { z } from 'zod';

/** Envelope codes the app understands (SPEC §8, §9). Every /api route answers HTTP 200 with one of these. */
export const Code = {
  ok: 200,
  /** Special: the caller receives the whole envelope as a rejection and handles it itself. */
  special: 201,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  tooManyRequests: 429,
  serverError: 500,
  /** The engine cannot make a command durable now (its journal failed): nothing was changed, try again shortly. */
  serviceUnavailable: 503,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** The response envelope `{code, msg, data}` used by every /api route. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export const envelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown(),
});

export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: Code.ok, msg, data };
}

export function fail(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/** A page of a list: what every paged call returns in `data`. */
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
