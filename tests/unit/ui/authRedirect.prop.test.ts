import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { safeRedirect } from '../../../src/ui/screens/login/safeRedirect.ts';
import { qrLoginPayload } from '../../../src/ui/screens/login/QrLoginPanel.tsx';

describe('safeRedirect', () => {
  it('always yields a same-origin path: resolved against the app origin it never leaves it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.constantFrom('//evil.com', '/\\evil.com', '/\t/evil.com', '/\n/evil.com', '\t//evil.com', 'https://x.y/z', 'javascript:alert(1)'),
        fc.tuple(fc.constantFrom('/', '//'), fc.constantFrom('\t', '\n', '\r', '\\', ''), fc.constantFrom('/evil.com', 'evil.com')).map((p) => p.join(''))), (raw) => {
        const out = safeRedirect(raw);
        expect(out.startsWith('/')).toBe(true);
        expect(new URL(out, 'https://app.example').origin).toBe('https://app.example');
      }),
    );
  });

  it('keeps ordinary in-app paths with their query, and sends login/register home', () => {
    fc.assert(
      fc.property(fc.webPath().filter((p) => p.startsWith('/') && !p.startsWith('//') && !/^\/(login|register)$/.test(p)), (p) => {
        expect(safeRedirect(p)).toBe(p);
      }),
    );
    expect(safeRedirect('/my/settings/security?x=1')).toBe('/my/settings/security?x=1');
    expect(safeRedirect('/login?redirect=/x')).toBe('/');
    expect(safeRedirect('/register')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
});

describe('QR login payload', () => {
  it('carries the nonce losslessly', () => {
    fc.assert(
      fc.property(fc.string(), (nonce) => {
        expect(new URL(qrLoginPayload(nonce)).searchParams.get('nonce')).toBe(nonce);
      }),
    );
  });
});
