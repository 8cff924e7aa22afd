import { Secret, TOTP } from 'otpauth';

/** RFC 6238 parameters every authenticator app understands. */
export const TOTP_ISSUER = 'RiskFree';
const PERIOD_S = 30;

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** otpauth://totp/RiskFree:<label>?... for the QR code. */
export function totpUri(secretBase32: string, label: string): string {
  return totpFor(secretBase32, label).toString();
}

/**
 * The time step (`floor(ms / 30 s)`) that `code` matches at `nowMs`, allowing one step either
 * side for clock drift; undefined when it matches none. Callers that log someone in store the
 * step and refuse steps at or below it, so an observed code cannot be replayed.
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const delta = totpFor(secretBase32, 'x').validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? undefined : Math.floor(nowMs / (PERIOD_S * 1000)) + delta;
}

/** True when `code` matches the step at `nowMs` or one step either side (no replay check). */
export function verifyTotp(secretBase32: string, code: string, nowMs: number): boolean {
  return matchTotpStep(secretBase32, code, nowMs) !== undefined;
}
