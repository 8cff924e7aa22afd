/**
 * Stable state hashing for replay (DESIGN §4): equal logs must give equal hashes on any machine.
 *
 * Invariants:
 * - {@link stableStringify} sorts object keys, so insertion order never changes a hash; arrays keep
 *   their order (order is part of the state there);
 * - `undefined`, functions and symbols are skipped (as JSON does for object fields); non-finite
 *   numbers are written as strings (`"NaN"`, `"Infinity"`) so they cannot collide with `null`;
 *   `-0` is written as `0`;
 * - Maps serialise as their entries sorted by the key's serialisation, Sets as sorted members,
 *   typed arrays as plain arrays, so the container choice inside a reducer does not matter.
 * - {@link fnv1a64} is 64-bit FNV-1a over the UTF-16 code units of the text, written as 16 hex
 *   digits. Not a cryptographic hash: it only has to be stable and spread well.
 */

/** Serialises `value` to JSON text with sorted keys (see module invariants). */
export function stableStringify(value: unknown): string {
  const out: string[] = [];
  write(value, out, new Set());
  return out.join('');
}

function write(v: unknown, out: string[], seen: Set<object>): void {
  if (v === null) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'number':
      if (Number.isFinite(v)) out.push(Object.is(v, -0) ? '0' : String(v));
      else out.push(JSON.stringify(String(v)));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(JSON.stringify(`${v.toString()}n`));
      return;
    case 'undefined':
    case 'function':
    case 'symbol':
      out.push('null');
      return;
    default:
      break;
  }
  const obj = v as object;
  if (seen.has(obj)) {
    out.push('"[cycle]"');
    return;
  }
  seen.add(obj);
  if (Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    const arr = Array.isArray(obj) ? obj : Array.from(obj as unknown as ArrayLike<unknown>);
    out.push('[');
    arr.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out, seen);
    });
    out.push(']');
  } else if (obj instanceof Map) {
    const entries = [...obj.entries()].map(([k, val]) => [stableStringify(k), val] as const).sort((a, b) => cmp(a[0], b[0]));
    out.push('{"$map":[');
    entries.forEach(([k, val], i) => {
      if (i > 0) out.push(',');
      out.push('[', k, ',');
      write(val, out, seen);
      out.push(']');
    });
    out.push(']}');
  } else if (obj instanceof Set) {
    const members = [...obj].map((m) => stableStringify(m)).sort(cmp);
    out.push('{"$set":[', members.join(','), ']}');
  } else {
    const rec = obj as Record<string, unknown>;
    const keys = Object.keys(rec).sort(cmp);
    out.push('{');
    let first = true;
    for (const k of keys) {
      const val = rec[k];
      if (val === undefined || typeof val === 'function' || typeof val === 'symbol') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(k), ':');
      write(val, out, seen);
    }
    out.push('}');
  }
  seen.delete(obj);
}

/** Code-unit order, independent of the host's locale (localeCompare is not). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const MASK64 = (1n << 64n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

/**
 * 64-bit FNV-1a of a string as 16 lowercase hex digits. Implemented on two 32-bit halves for
 * speed (BigInt per character is slow); {@link fnv1a64Reference} is the plain BigInt version the
 * tests compare against.
 */
export function fnv1a64(text: string): string {
  // State as four 16-bit limbs (h3 most significant), multiply by the prime 2^40 + 0x1b3.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h0 ^= c; // a UTF-16 code unit fills exactly the low limb
    // h * (2^40 + 0x1b3): every limb times 0x1b3, plus h << 40 (= h << 8 two limbs up), carries upward.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3;
    const t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    h0 = t0 & 0xffff;
    const c1 = t1 + (t0 >>> 16);
    h1 = c1 & 0xffff;
    const c2 = t2 + (c1 >>> 16);
    h2 = c2 & 0xffff;
    h3 = (t3 + (c2 >>> 16)) & 0xffff;
  }
  return hex16(h3) + hex16(h2) + hex16(h1) + hex16(h0);
}

function hex16(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/** The BigInt definition {@link fnv1a64} must agree with (FNV-1a over 16-bit code units). */
export function fnv1a64Reference(text: string): string {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    const c = BigInt(text.charCodeAt(i));
    h ^= c;
    h = (h * FNV_PRIME) & MASK64;
  }
  return h.toString(16).padStart(16, '0');
}

/** The replay hash of a state: FNV-1a 64 over its stable serialisation. */
export function hashState(state: unknown): string {
  return fnv1a64(stableStringify(state));
}
