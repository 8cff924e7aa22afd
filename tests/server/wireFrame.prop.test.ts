import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { textFrame } from '../../server/market/wireFrame.ts';

/** ws exports its frame parser (index.js: WebSocket.Receiver); @types/ws does not declare it. */
interface ReceiverLike {
  on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): this;
  on(event: 'error', fn: (err: Error) => void): this;
  write(chunk: Buffer): boolean;
  end(cb: () => void): void;
}
const Receiver = (createRequire(import.meta.url)('ws') as { Receiver: new (opts: { isServer: boolean; maxPayload: number }) => ReceiverLike }).Receiver;

/**
 * The market fan-out frames each message once (server/market/wireFrame.ts) and writes those bytes
 * to every subscriber, bypassing `ws.send`. A client-side `ws` Receiver (the real parser) must read
 * any batch of such frames, concatenated and cut into arbitrary TCP chunks, back as the same texts
 * in order: every length class (7-bit, 16-bit, 64-bit) included.
 */
function decode(bytes: Buffer, cuts: number[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const r = new Receiver({ isServer: false, maxPayload: 0 });
    const out: string[] = [];
    r.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) reject(new Error('binary frame'));
      out.push(data.toString('utf8'));
    });
    r.on('error', reject);
    let at = 0;
    for (const c of [...cuts.map((x) => Math.floor(x * bytes.length)).sort((a, b) => a - b), bytes.length]) {
      if (c > at) r.write(bytes.subarray(at, c));
      at = Math.max(at, c);
    }
    r.end(() => resolve(out));
  });
}

/** A text of exactly `n` UTF-8 bytes (n at and around the 125/126 and 65535/65536 length-class edges, or small). */
const byteLengths = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 65_530, max: 65_540 }), fc.constantFrom(125, 126, 127, 65_535, 65_536));
const text = fc
  .tuple(byteLengths, fc.string({ unit: fc.constantFrom('a', 'é', '€', '{', '"', '😀'), maxLength: 20 }))
  .map(([n, head]) => {
    let t = head;
    while (Buffer.byteLength(t) > n) t = t.slice(0, -1);
    // Cutting inside a surrogate pair leaves a lone surrogate (not valid UTF-8 once encoded): drop it too.
    t = t.replace(/[\uD800-\uDBFF]$/, '');
    return t + 'a'.repeat(n - Buffer.byteLength(t));
  });

describe('textFrame (pre-framed market messages)', () => {
  it('a batch of frames in any chunking decodes to the same texts, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }), async (texts, cuts) => {
        const bytes = Buffer.concat(texts.map((t) => textFrame(Buffer.from(t))));
        expect(await decode(bytes, cuts)).toEqual(texts);
      }),
      { numRuns: 150 },
    );
  });
});
