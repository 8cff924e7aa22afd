import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depositAddressFor, formatAddress, isValidAddress, toChecksumAddress } from '../../server/money/addresses.ts';
import { CHAIN_RULES } from '../../src/protocol/wallet.ts';

/** Address formats against published test vectors (EIP-55, BIP-173/350, TRON) and as properties. */
describe('address formats', () => {
  it('EIP-55 vectors from the EIP', () => {
    for (const a of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(toChecksumAddress(a.slice(2))).toBe(a);
      expect(isValidAddress('evm', a)).toBe(true);
      expect(isValidAddress('evm', a.toLowerCase())).toBe(true);
    }
    expect(isValidAddress('evm', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isValidAddress('evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe(false);
  });

  it('Bitcoin: BIP-173 / BIP-350 vectors and legacy base58check', () => {
    for (const a of ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy']) {
      expect(isValidAddress('bitcoin', a)).toBe(true);
    }
    for (const a of ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'bc1Qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      // v1 encoded with bech32 instead of bech32m (BIP-350 invalid vector).
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', '']) {
      expect(isValidAddress('bitcoin', a)).toBe(false);
    }
  });

  it('TRON: the USDT contract address is valid, a one-character change is not', () => {
    expect(isValidAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isValidAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isValidAddress('tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });

  it('every formatted address is valid for its own format only, and derivation is a function of (secret, uid, network)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')), fc.integer({ min: 10_000_001, max: 99_999_999 }), (bytes, secret, uid) => {
        for (const f of ['tron', 'evm', 'bitcoin'] as const) {
          const a = formatAddress(f, bytes);
          expect(isValidAddress(f, a)).toBe(true);
          for (const g of ['tron', 'evm', 'bitcoin'] as const) if (g !== f) expect(isValidAddress(g, a)).toBe(false);
        }
        for (const r of CHAIN_RULES) {
          const a = depositAddressFor(secret, uid, r.network, r.format);
          expect(depositAddressFor(secret, uid, r.network, r.format)).toBe(a);
          expect(isValidAddress(r.format, a)).toBe(true);
          expect(depositAddressFor(secret, uid + 1, r.network, r.format)).not.toBe(a);
        }
      }),
      { numRuns: 200 },
    );
  });
});
