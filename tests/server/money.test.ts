import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, parseMinor, toMinor } from '../../server/db/money.ts';
import { loadConfig } from '../../server/config.ts';
import { maskEmail, summariseUserAgent } from '../../server/services/format.ts';
import { sniffImage } from '../../server/services/images.ts';
import { hashPassword, verifyPassword } from '../../server/services/passwords.ts';

describe('money', () => {
  it('toMinor/formatMinor round-trip exactly for any integer amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.constantFrom('USDT', 'BTC', 'USD'), (minor, asset) => {
        expect(toMinor(formatMinor(minor, asset), asset)).toBe(minor);
      }),
    );
  });

  it('parses and refuses what it should', () => {
    expect(toMinor('10000', 'USDT')).toBe(10_000_000_000n);
    expect(toMinor('0.1', 'USDT')).toBe(100_000n);
    expect(formatMinor(-5n, 'USDT')).toBe('-0.000005');
    expect(() => toMinor('0.0000001', 'USDT')).toThrow();
    expect(() => toMinor('1e3', 'USDT')).toThrow();
    expect(() => parseMinor('1.5')).toThrow();
    expect(parseMinor('-42')).toBe(-42n);
  });
});

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect([c.host, c.port, c.freshDb, c.logLevel, c.exposeOutbox, c.serveStatic]).toEqual(['127.0.0.1', 8080, false, 'info', true, true]);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });
  it('reads the environment', () => {
    const c = loadConfig({ HOST: '0.0.0.0', PORT: '8199', DATA_DIR: '/tmp/x', FRESH_DB: '1', LOG_LEVEL: 'warn', NODE_ENV: 'production' });
    expect([c.host, c.port, c.dataDir, c.freshDb, c.logLevel, c.exposeOutbox]).toEqual(['0.0.0.0', 8199, '/tmp/x', true, 'warn', false]);
    expect(loadConfig({ NODE_ENV: 'production', EXPOSE_OUTBOX: '1' }).exposeOutbox).toBe(true);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow();
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow();
  });
});

describe('small services', () => {
  it('masks emails', () => {
    expect(maskEmail('demo@example.com')).toBe('de***@example.com');
    expect(maskEmail('ab@x.io')).toBe('a***@x.io');
  });
  it('summarises user agents', () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
    expect(summariseUserAgent(chrome)).toBe('Chrome on Linux');
    expect(summariseUserAgent(undefined)).toBe('');
  });
  it('needs extension and magic bytes to agree', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
    expect(sniffImage('a.PNG', png)).toBe('png');
    expect(sniffImage('a.jpg', png)).toBeUndefined();
    expect(sniffImage('a.jpeg', Buffer.from([0xff, 0xd8, 0xff]))).toBe('jpeg');
  });
  it('hashes passwords with a salt and verifies only the right one', async () => {
    const a = await hashPassword('demo1234');
    const b = await hashPassword('demo1234');
    expect(a).not.toBe(b);
    expect(await verifyPassword('demo1234', a)).toBe(true);
    expect(await verifyPassword('demo1235', a)).toBe(false);
    expect(await verifyPassword('demo1234', '!')).toBe(false);
  });
});
