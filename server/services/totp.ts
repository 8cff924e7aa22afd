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

/** True when `code` matches the step at `nowMs` or one step either side (clock drift). */
export function verifyTotp(secretBase32: string, code: string, nowMs: number): boolean {
  return totpFor(secretBase32, 'x').validate({ token: code, timestamp: nowMs, window: 1 }) !== null;
}
