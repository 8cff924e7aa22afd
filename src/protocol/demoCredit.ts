import type { LedgerEntry } from './trading.ts';

/**
 * The demo credit (issue 26): a new account may receive demo balances (server config.demoCredit,
 * DEMO_CREDIT=0 turns it off, always off in production). Its ledger postings are ADMIN_ADJUST
 * whose ref starts with this prefix, so every history names them "Demo credit" instead of an
 * unexplained admin adjustment.
 */
export const DEMO_CREDIT_REF = 'demo-credit-';

/** Whether a ledger entry is the demo credit. */
export function isDemoCredit(e: Pick<LedgerEntry, 'type' | 'ref'>): boolean {
  return e.type === 'ADMIN_ADJUST' && typeof e.ref === 'string' && e.ref.startsWith(DEMO_CREDIT_REF);
}
