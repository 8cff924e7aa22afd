import { createHash, randomBytes } from 'node:crypto';

/** A raw session token: 32 random bytes as hex. Only the client ever sees it. */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** What the database stores for a token. */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** The raw token from an Authorization header, with or without a 'Bearer ' prefix. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const t = header.replace(/^Bearer\s+/i, '').trim();
  return /^[0-9a-f]{64}$/i.test(t) ? t.toLowerCase() : undefined;
}
