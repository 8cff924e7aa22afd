/**
 * Replayed form secrets (docs/REPLAY.md "Screen flows headless"). The log never holds what the user
 * typed into a secret field (a KYC document number): the intent and the request body both carry
 * the same placeholder `<redacted:secret#N>` (src/ports/redact.ts). A replayed form must still pass
 * its own rules to make the recorded request, so the replay types a stand-in for each placeholder,
 * `REDACTED-N` (letters, digits and a hyphen: a valid document number), and reads the stand-in back
 * as its placeholder when it compares the request the app made with the recorded one.
 */

const PLACEHOLDER = /^<redacted:secret#(\d+)>$/;
const STAND_IN = /^REDACTED-(\d+)$/;

const mapStrings = (v: unknown, f: (s: string) => string): unknown => {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  }
  return v;
};

/** A copy of a recorded intent with each secret placeholder replaced by its stand-in. */
export function standInSecrets<T>(event: T): T {
  return mapStrings(event, (s) => s.replace(PLACEHOLDER, 'REDACTED-$1')) as T;
}

/** A copy of a request view with each stand-in read back as the placeholder it stands for. */
export function placeholdersOfStandIns<T>(view: T): T {
  return mapStrings(view, (s) => s.replace(STAND_IN, '<redacted:secret#$1>')) as T;
}
