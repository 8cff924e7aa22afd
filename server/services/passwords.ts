import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt at the OWASP Password Storage Cheat Sheet's recommendation
 * (N=2^17, r=8, p=1: 128 MiB and about 100-400 ms per hash), parameters stored in the hash string:
 *
 *   scrypt$ln=17,r=8,p=1$<salt hex>$<key hex>      current format
 *   scrypt$<salt hex>$<key hex>                    legacy format, read as ln=14, r=8, p=1
 *
 * A hash weaker than the configured cost still verifies; {@link needsRehash} tells the login route
 * to store a fresh hash at the configured cost (transparent upgrade at the next successful login).
 */

const KEY_LEN = 32;
/** OWASP: scrypt with N >= 2^17, r = 8, p = 1. The production default of config.passwordHashLogN. */
export const DEFAULT_SCRYPT_LOG_N = 17;
/** Cost of the legacy `scrypt$salt$key` hashes written before the parameters were stored. */
export const LEGACY_SCRYPT_LOG_N = 14;
/** Bounds accepted from a stored hash: below is not a password hash, above would let a row exhaust memory. */
const MIN_LOG_N = 10;
const MAX_LOG_N = 20;

export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/** scrypt needs 128 * N * r * p bytes; Node refuses above `maxmem` (32 MiB by default), so allow twice that. */
function maxmem({ logN, r, p }: ScryptParams): number {
  return 2 * 128 * 2 ** logN * r * p + 1024 * 1024;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const opts = { N: 2 ** params.logN, r: params.r, p: params.p, maxmem: maxmem(params) };
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

/** Reads either format; undefined for anything else (e.g. '!' of the system account). */
export function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return undefined;
  let params: ScryptParams = { logN: LEGACY_SCRYPT_LOG_N, r: 8, p: 1 };
  let rest = parts.slice(1);
  if (parts.length === 4) {
    const m = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(parts[1] ?? '');
    if (!m) return undefined;
    params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
    rest = parts.slice(2);
  } else if (parts.length !== 3) return undefined;
  const [saltHex, keyHex] = rest;
  if (!saltHex || !keyHex || !/^[0-9a-f]+$/i.test(saltHex) || !/^[0-9a-f]+$/i.test(keyHex)) return undefined;
  if (params.logN < MIN_LOG_N || params.logN > MAX_LOG_N || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 4) return undefined;
  const key = Buffer.from(keyHex, 'hex');
  if (key.length !== KEY_LEN) return undefined;
  return { params, salt: Buffer.from(saltHex, 'hex'), key };
}

/** `scrypt$ln=<logN>,r=8,p=1$<salt hex>$<key hex>` with a fresh 16-byte salt. */
export async function hashPassword(password: string, logN = DEFAULT_SCRYPT_LOG_N): Promise<string> {
  const params: ScryptParams = { logN, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$ln=${logN},r=${params.r},p=${params.p}$${salt.toString('hex')}$${key.toString('hex')}`;
}

/** Constant-time check at the parameters stored in the hash. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  return timingSafeEqual(actual, parsed.key);
}

/** True when `stored` is weaker than (or not in) the format {@link hashPassword} writes at `logN`. */
export function needsRehash(stored: string, logN = DEFAULT_SCRYPT_LOG_N): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.params.logN < logN || parsed.params.r < 8 || !stored.startsWith('scrypt$ln=');
}

const dummies = new Map<number, string>();
/**
 * A well-formed hash nobody's password matches, at cost `logN`: unknown emails are checked against
 * it so response time does not reveal whether an account exists.
 */
export function dummyHash(logN = DEFAULT_SCRYPT_LOG_N): string {
  let h = dummies.get(logN);
  if (h === undefined) {
    h = `scrypt$ln=${logN},r=8,p=1$${'00'.repeat(16)}$${'00'.repeat(KEY_LEN)}`;
    dummies.set(logN, h);
  }
  return h;
}
