import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import type { AddressFormat } from './wallet.ts';

/**
 * Withdrawal address checks per network format, shared by the server (the final word) and the
 * withdrawal form (issue 26: a bad address is refused as it is typed, before the emailed code is
 * spent): the shape of each format and its checksum where it has one (base58check for Tron and
 * legacy Bitcoin, bech32 / bech32m for SegWit / Taproot, EIP-55 for mixed-case EVM addresses).
 * Well-kept libraries: @scure/base and @noble/hashes (paulmillr, audited, no dependencies).
 */

/** base58check with double SHA-256 (Tron, Bitcoin legacy). */
export const base58check = createBase58check(sha256);

/** EIP-55: each hex letter upper-case when the matching nibble of keccak256(lower-case hex) is ≥ 8. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i += 1) {
    const c = lower[i] ?? '';
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function isTron(a: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(a)) return false;
  try {
    const bytes = base58check.decode(a);
    return bytes.length === 21 && bytes[0] === 0x41;
  } catch {
    return false;
  }
}

function isEvm(a: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return false;
  const body = a.slice(2);
  // All one case: no checksum to check. Mixed case: it must be the EIP-55 checksum.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(body) === a;
}

function isBitcoin(a: string): boolean {
  const lower = a.toLowerCase();
  if (lower.startsWith('bc1')) {
    if (a !== lower && a !== a.toUpperCase()) return false;
    for (const codec of [bech32, bech32m]) {
      try {
        const { prefix, words } = codec.decode(lower as `${string}1${string}`);
        const [version = -1, ...rest] = words;
        if (prefix !== 'bc' || version < 0 || version > 16) continue;
        // BIP-350: version 0 uses bech32, versions 1..16 use bech32m.
        if ((version === 0) !== (codec === bech32)) continue;
        const program = codec.fromWords(rest);
        if (version === 0 ? program.length === 20 || program.length === 32 : program.length >= 2 && program.length <= 40) return true;
      } catch {
        // try the other codec
      }
    }
    return false;
  }
  // Legacy P2PKH ('1…', version 0) and P2SH ('3…', version 5).
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(a)) return false;
  try {
    const bytes = base58check.decode(a);
    return bytes.length === 21 && (bytes[0] === 0x00 || bytes[0] === 0x05);
  } catch {
    return false;
  }
}

/** True when `address` is a well-formed address of the format (checksums verified). */
export function isValidAddress(format: AddressFormat, address: string): boolean {
  switch (format) {
    case 'tron':
      return isTron(address);
    case 'evm':
      return isEvm(address);
    case 'bitcoin':
      return isBitcoin(address);
  }
}

/**
 * The form of an address two spellings of which are the same destination (issue 26, address book
 * and whitelist): EVM hex and bech32 are case-insensitive (lower-cased), base58 is case-sensitive
 * (kept). Used to find a typed address in the address book and to refuse a second copy of one.
 */
export function addressKey(format: AddressFormat, address: string): string {
  const a = address.trim();
  if (format === 'evm') return a.toLowerCase();
  if (format === 'bitcoin' && a.toLowerCase().startsWith('bc1')) return a.toLowerCase();
  return a;
}
