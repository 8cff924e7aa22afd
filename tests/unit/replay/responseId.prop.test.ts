import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { socketResponseIdOf } from '../../../src/protocol/socketApi.ts';

/** What the answer's id is by definition: the parsed frame's `type` and `id`. */
function reference(text: string): string | number | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as { type?: unknown; id?: unknown };
  return o.type === 'response' && (typeof o.id === 'string' || typeof o.id === 'number') ? o.id : null;
}

describe('socketResponseIdOf (the replay asks it for every recorded frame)', () => {
  it('equals the parsed definition for frames with their type first, elsewhere, or none', () => {
    const type = fc.oneof(fc.constantFrom('response', 'responses', 'depth', 'trade', 'authed', 'order', ''), fc.string());
    const id = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant(undefined));
    const rest = fc.dictionary(fc.string().filter((k) => k !== 'type' && k !== 'id'), fc.jsonValue(), { maxKeys: 4 });
    const frame = fc.tuple(type, id, rest, fc.boolean(), fc.boolean()).map(([t, i, r, typeFirst, hasType]) => {
      const o: Record<string, unknown> = {};
      if (hasType && typeFirst) o.type = t;
      Object.assign(o, r);
      if (i !== undefined) o.id = i;
      if (hasType && !typeFirst) o.type = t;
      return JSON.stringify(o);
    });
    fc.assert(fc.property(fc.oneof(frame, fc.string()), (text) => {
      expect(socketResponseIdOf(text)).toEqual(reference(text));
    }), { numRuns: 2000 });
  });

  it('reads an answer and skips a market frame', () => {
    expect(socketResponseIdOf('{"type":"response","id":7,"code":200}')).toBe(7);
    expect(socketResponseIdOf('{"id":"a","type":"response"}')).toBe('a');
    expect(socketResponseIdOf('{"type":"depth","symbol":"BTCUSDT","note":"response"}')).toBeNull();
  });
});
