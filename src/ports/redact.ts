import { isStatusCode, secretClassOf } from '../protocol/secrets.ts';
import type { SecretClass } from '../protocol/secrets.ts';

/**
 * Write-time redaction for the event log (DESIGN §3): secrets never enter a record. Each distinct
 * secret value gets a stable placeholder `<redacted:<class>#<n>>` (same value → same placeholder for
 * the life of the redactor), so a replay still sees equal requests where the recording had equal
 * secrets. Once a value is known to be secret, it is also replaced inside any later string (a token
 * in a URL, a password echoed in a message).
 */

export type { SecretClass } from '../protocol/secrets.ts';

/**
 * Field name → class of secret, from the one key list of src/protocol/secrets.ts (matched on the
 * name lowercased without `_`/`-`: password, code, googleSecret, totpCode, verifyCode, docNo,
 * docNumber, token, Authorization...).
 */
export function classifyField(key: string): SecretClass | null {
  return secretClassOf(key);
}

/** Values shorter than this are not replaced inside other strings (too likely to collide). */
const MIN_EMBEDDED = 6;

export interface Redactor {
  /** Registers `value` as a secret of `cls` and returns its placeholder. */
  secret(value: string, cls: SecretClass): string;
  /** A deep copy of `value` with secret fields and known secret substrings replaced. */
  redact<T>(value: T): T;
  /** Redacts a JSON text (socket frames): parsed, redacted, re-serialised; plain text is scanned. */
  redactText(text: string): string;
}

export function createRedactor(): Redactor {
  const placeholders = new Map<string, string>();
  const counters: Record<SecretClass, number> = { token: 0, password: 0, code: 0, secret: 0 };

  const secret = (value: string, cls: SecretClass): string => {
    const known = placeholders.get(value);
    if (known) return known;
    counters[cls] += 1;
    const ph = `<redacted:${cls}#${counters[cls]}>`;
    placeholders.set(value, ph);
    return ph;
  };

  const scrub = (s: string): string => {
    const exact = placeholders.get(s);
    if (exact) return exact;
    let out = s;
    for (const [value, ph] of placeholders) {
      if (value.length >= MIN_EMBEDDED && out.includes(value)) out = out.split(value).join(ph);
    }
    return out;
  };

  const walk = (v: unknown, cls: SecretClass | null): unknown => {
    if (typeof v === 'string') {
      if (cls) {
        // "Bearer <token>" keeps its scheme so the shape of the header stays visible.
        const m = /^(Bearer\s+)(.+)$/i.exec(v);
        return m ? `${m[1]}${secret(m[2] ?? '', cls)}` : v === '' ? '' : secret(v, cls);
      }
      return scrub(v);
    }
    // A number under a secret key is a secret too (a verification code sent as 123456); the status
    // `code` of an envelope or error frame never gets a class (isStatusCode below).
    if (typeof v === 'number' && cls) return secret(String(v), cls);
    if (Array.isArray(v)) return v.map((x) => walk(x, cls));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      const obj = v as Record<string, unknown>;
      for (const [k, x] of Object.entries(obj)) {
        // A logged FormData is `{formData: [[name, value], ...]}` (ports/recording.ts): a text part is
        // classified by its part name; a file part is already only a {file, size, type} description.
        out[k] = k === 'formData' && !cls && Array.isArray(x) ? x.map((p) => formPart(p)) : walk(x, cls ?? (isStatusCode(obj, k) ? null : classifyField(k)));
      }
      return out;
    }
    return v;
  };

  function formPart(p: unknown): unknown {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string') return walk(p, null);
    const [name, value] = p as [string, unknown];
    return [name, typeof value === 'string' ? walk(value, classifyField(name)) : walk(value, null)];
  }

  return {
    secret,
    redact: <T,>(value: T) => walk(value, null) as T,
    redactText(text: string) {
      try {
        return JSON.stringify(walk(JSON.parse(text), null));
      } catch {
        return scrub(text);
      }
    },
  };
}
