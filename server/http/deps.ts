import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RevocationHub } from '../ws/revocations.ts';
import type { RateLimits } from './rateLimit.ts';

/** The server's clock: injectable so tests control code expiry, token expiry, rate limits and TOTP steps. */
export interface ServerClock {
  now(): number;
}

/** What every route reaches through `app.deps` (decorated on the root instance by buildApp). */
export interface AppDeps {
  db: Db;
  clock: ServerClock;
  config: ServerConfig;
  limits: RateLimits;
  /** Session revocations; the user socket listens (server/ws/revocations.ts). */
  revocations: RevocationHub;
  /** Outgoing mail (server/mail/mailer.ts). */
  mailer: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
