import { randomBytes } from 'node:crypto';
import { Code } from '../../src/protocol/envelope.ts';
import { classify, Rejection, SERVER_MSG } from '../http/errors.ts';
import type { Broker } from './broker.ts';
import { CHANNEL } from './channels.ts';

/** A gateway's request to the engine. */
export interface EngineRequest {
  id: string;
  replyTo: string;
  method: string;
  args: unknown[];
}

/** The engine's answer: the envelope the route would have answered in one process. */
export interface EngineReply {
  id: string;
  code: number;
  msg: string;
  data: unknown;
}

/** Default time a gateway waits for the engine (a dead engine answers nothing). */
export const ENGINE_TIMEOUT_MS = 10_000;

export type EngineHandlers = Record<string, (...args: never[]) => unknown>;

/**
 * Serves requests on the engine channel with `handlers` (one process: the engine that holds the
 * lock). A handler's Rejection becomes its code and message, as the route's error handler would
 * answer; anything else is logged and answered 500. Returns the stop function.
 */
export function serveEngine(broker: Broker, handlers: EngineHandlers, onError: (err: unknown) => void): () => void {
  return broker.subscribe(CHANNEL.engine, (raw) => {
    const req = JSON.parse(raw) as EngineRequest;
    const answer = (r: Omit<EngineReply, 'id'>): void => broker.publish(req.replyTo, JSON.stringify({ id: req.id, ...r }));
    const handler = handlers[req.method] as ((...args: unknown[]) => unknown) | undefined;
    if (handler === undefined) return answer({ code: Code.badRequest, msg: SERVER_MSG.badRequest, data: null });
    Promise.resolve()
      .then(() => handler(...req.args))
      .then(
        (data) => answer({ code: Code.ok, msg: 'success', data: data ?? null }),
        (err: unknown) => {
          const [code, msg, unexpected] = classify(err);
          if (unexpected) onError(err);
          answer({ code, msg, data: null });
        },
      );
  });
}

/** The gateway's side: request/reply over the broker with a timeout. */
export class EngineClient {
  readonly id = randomBytes(6).toString('hex');
  private readonly pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: ReturnType<typeof setTimeout> }>();
  private readonly off: () => void;
  private seq = 0;

  constructor(
    private readonly broker: Broker,
    private readonly timeoutMs = ENGINE_TIMEOUT_MS,
  ) {
    this.off = broker.subscribe(CHANNEL.reply(this.id), (raw) => {
      const r = JSON.parse(raw) as EngineReply;
      const p = this.pending.get(r.id);
      if (p === undefined) return;
      this.pending.delete(r.id);
      clearTimeout(p.timer);
      if (r.code === Code.ok) p.resolve(r.data);
      else p.reject(new Rejection(r.code, r.msg));
    });
  }

  /** Calls `method` on the engine; rejects with the engine's Rejection, or a 500 after the timeout. */
  call<T>(method: string, ...args: unknown[]): Promise<T> {
    const id = `${this.id}-${++this.seq}`;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Rejection(Code.serverError, SERVER_MSG.internal));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      const req: EngineRequest = { id, replyTo: CHANNEL.reply(this.id), method, args };
      this.broker.publish(CHANNEL.engine, JSON.stringify(req));
    });
  }

  close(): void {
    this.off();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Rejection(Code.serverError, SERVER_MSG.internal));
      this.pending.delete(id);
    }
  }
}
