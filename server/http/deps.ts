import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RevocationHub } from '../ws/revocations.ts';
import type { RateLimits } from './rateLimit.ts';

/** The server's clock: injectable so tests control code expiry, token expiry, rate limits and TOTP steps. */
export interface ServerClock {
  now(): number;
}

/** What happened to an account that features react to (docs/SECURITY.md). */
export interface PasswordChanged {
  userId: number;
  /** reset: POST /api/user/resetPassword (every session ended); change: POST /api/user/modify-password. */
  kind: 'reset' | 'change';
  now: number;
}

/**
 * Reactions of the features to account events, run inside the request that caused them (before it
 * answers): the money feature cancels the account's pending withdrawals on a password change.
 */
export interface AccountHooks {
  passwordChanged: ((e: PasswordChanged) => Promise<void>)[];
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
  /** Feature reactions to account events (a plugin pushes its handler when it registers). */
  accountHooks: AccountHooks;
}

/** Runs every `passwordChanged` hook in order (each must finish before the request answers). */
export async function passwordChanged(deps: AppDeps, e: PasswordChanged): Promise<void> {
  for (const hook of deps.accountHooks.passwordChanged) await hook(e);
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
