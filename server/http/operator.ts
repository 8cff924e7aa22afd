import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { Code } from '../../src/protocol/envelope.ts';
import { OPERATOR_TOKEN_MIN_LENGTH } from '../config.ts';
import { reject } from './errors.ts';

/**
 * The operator credential (issue 29, docs/SECURITY.md "Operator routes"). Every state-changing
 * route under /api/dev (deposits, withdrawal review, fast-forwards, KYC and trader review, copy
 * rounds, compensation) runs `requireOperator` first: the request must come from a loopback client
 * (unless OPERATOR_REMOTE=1) and carry the operator token in the `x-operator-token` header.
 *
 * The token is OPERATOR_TOKEN when set (at least 32 characters), otherwise a random one the server
 * creates at its first start in DATA_DIR/operator.token (mode 0600) and prints once. The operator
 * commands (`npm run wallet`, `kyc`, `copy`, `outbox`) read it from the same two places.
 */

/** Request header that carries the operator token. */
export const OPERATOR_HEADER = 'x-operator-token';
/** File name of the generated token inside DATA_DIR. */
export const OPERATOR_TOKEN_FILE = 'operator.token';
export { OPERATOR_TOKEN_MIN_LENGTH };

export const OPERATOR_MSG = {
  missing: 'Operator token required: send the x-operator-token header (OPERATOR_TOKEN or DATA_DIR/operator.token)',
  wrong: 'Invalid operator token',
  notConfigured: 'Operator routes are disabled: no operator token is configured',
  remote: 'Operator routes answer loopback clients only (start the server with OPERATOR_REMOTE=1 to allow remote operators)',
} as const;

/** A loopback peer address: 127.0.0.0/8, ::1, or 127.x mapped into IPv6. */
export function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  const a = addr.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether the request comes from this machine: the socket peer and the client address Fastify
 * resolved (X-Forwarded-For under TRUST_PROXY) are both loopback, and no proxy header says it was
 * relayed for someone else (a reverse proxy on the same host would otherwise make every client local).
 */
export function isLoopbackRequest(req: FastifyRequest): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined) return false;
  return isLoopbackAddress(req.socket.remoteAddress) && isLoopbackAddress(req.ip);
}

/** Constant-time comparison: both sides are hashed to equal-length digests first. */
export function operatorTokenMatches(sent: string, expected: string): boolean {
  const a = createHash('sha256').update(sent, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function check(req: FastifyRequest, loopbackSuffices: boolean): void {
  const { config } = req.server.deps;
  const loopback = isLoopbackRequest(req);
  if (!loopback && !config.operatorRemote) reject(Code.forbidden, OPERATOR_MSG.remote);
  if (loopback && loopbackSuffices) return;
  const expected = config.operatorToken;
  if (!expected) reject(Code.unauthorized, OPERATOR_MSG.notConfigured);
  const sent = req.headers[OPERATOR_HEADER];
  if (typeof sent !== 'string' || sent === '') reject(Code.unauthorized, OPERATOR_MSG.missing);
  if (!operatorTokenMatches(sent, expected)) reject(Code.unauthorized, OPERATOR_MSG.wrong);
}

/**
 * onRequest hook of every operator route (`r.addHook('onRequest', requireOperator)` in the
 * plugin that registers them): 403 from a non-loopback client unless OPERATOR_REMOTE=1, then 401
 * without the right token. Runs before the body is read.
 */
export async function requireOperator(req: FastifyRequest): Promise<void> {
  check(req, false);
}

/**
 * The development mail outbox (GET /api/dev/outbox): readable from loopback without a token (the
 * README's newcomer steps), from elsewhere only as an operator (OPERATOR_REMOTE=1 and the token).
 */
export async function loopbackOrOperator(req: FastifyRequest): Promise<void> {
  check(req, true);
}

/**
 * The token in DATA_DIR/operator.token, created (32 random bytes as hex, mode 0600) when absent.
 * `created` is true only for the call that wrote it, so the caller prints it once. Several processes
 * starting together on one DATA_DIR agree: the file is created exclusively and read by the others.
 */
export function loadOrCreateOperatorToken(dataDir: string): { token: string; created: boolean; file: string } {
  const file = join(dataDir, OPERATOR_TOKEN_FILE);
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { token, created: true, file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // An existing file readable by others is narrowed to its owner.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  // Another process may have created it a moment ago and not written it yet.
  let existing = readOperatorTokenFile(dataDir);
  for (let i = 0; existing === null && i < 20; i++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    existing = readOperatorTokenFile(dataDir);
  }
  if (existing === null) throw new Error(`${file} is empty or shorter than ${OPERATOR_TOKEN_MIN_LENGTH} characters: delete it to get a new token`);
  return { token: existing, created: false, file };
}

/** The token in DATA_DIR/operator.token, or null when the file is missing or unusable. */
export function readOperatorTokenFile(dataDir: string): string | null {
  try {
    const t = readFileSync(join(dataDir, OPERATOR_TOKEN_FILE), 'utf8').trim();
    return t.length >= OPERATOR_TOKEN_MIN_LENGTH ? t : null;
  } catch {
    return null;
  }
}

/** What the operator commands send: OPERATOR_TOKEN, else DATA_DIR/operator.token; {} when neither exists. */
export function operatorHeadersFor(config: { operatorToken: string | null; dataDir: string }): Record<string, string> {
  const token = config.operatorToken ?? readOperatorTokenFile(config.dataDir);
  return token ? { [OPERATOR_HEADER]: token } : {};
}
