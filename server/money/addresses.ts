import { createHmac, randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { base58check, toChecksumAddress } from '../../src/protocol/addresses.ts';
import type { AddressFormat, Network } from '../../src/protocol/wallet.ts';
import type { Db } from '../db/connection.ts';

/**
 * Deposit addresses per network (the withdrawal address checks are in src/protocol/addresses.ts,
 * shared with the withdrawal form), with @scure/base for base58check and bech32. A user's address on a network is
 * HMAC-SHA256(server secret, "uid:network") cut to 20 bytes and written in the network's format,
 * so it is the same on every visit and after a restart, and unguessable without the secret.
 * (A real exchange derives keys it can sign with; the simulated chain only needs stable, valid-looking addresses.)
 */

const SECRET_NAME = 'deposit_address_key';

/** The derivation key, generated once per database and kept in server_secrets. */
export async function addressSecret(db: Db): Promise<string> {
  const found = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (found) return found.value;
  await db
    .insertInto('server_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return row.value;
}

/** Formats 20 bytes as an address of the network's format. */
export function formatAddress(format: AddressFormat, bytes20: Uint8Array): string {
  switch (format) {
    case 'tron':
      return base58check.encode(Uint8Array.of(0x41, ...bytes20));
    case 'evm':
      return toChecksumAddress(Buffer.from(bytes20).toString('hex'));
    case 'bitcoin':
      return bech32.encode('bc', [0, ...bech32.toWords(bytes20)]);
  }
}

/** The user's deposit address on `network` (format from the network's rule). */
export function depositAddressFor(secret: string, userId: number, network: Network, format: AddressFormat): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${userId}:${network}`).digest();
  return formatAddress(format, new Uint8Array(mac.subarray(0, 20)));
}

// The checks live in src/protocol/addresses.ts (the withdrawal form runs them as the address is typed).
export { isValidAddress, toChecksumAddress } from '../../src/protocol/addresses.ts';
