import type { Selectable } from 'kysely';
import { Code } from '../../src/protocol/envelope.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { VOUCHER_MSG } from '../../src/protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherListQuery } from '../../src/protocol/vouchers.ts';
import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { VouchersTable } from '../db/schema.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { effectiveStatus, isUsable, MERGE_MAX, MERGE_MIN, mergeResult } from './rules.ts';
import { transact } from '../db/tx.ts';

/**
 * Voucher operations (docs/VOUCHERS.md). Invariants:
 * - a voucher leaves `use` at most once: every change is a conditional UPDATE ... WHERE status='use'
 *   (and not expired), so two concurrent uses or merges cannot both succeed;
 * - `expired` is derived on every read (expires_at <= now) and persisted lazily;
 * - welcome vouchers are granted once per account (one transaction checks and inserts).
 * Frames are published by the callers after the commit (see `publishVouchers`).
 */

export type VoucherRow = Selectable<VouchersTable>;

export const DAY_MS = 86_400_000;

/** Welcome vouchers: one 20 USDT loss-protection valid 30 days, one permanent 50 % speed. */
export const WELCOME_VOUCHERS: readonly { kind: VoucherKind; value: string; validDays: number | null }[] = [
  { kind: 'lossProtection', value: '20000000', validDays: 30 },
  { kind: 'speed', value: '50', validDays: null },
];

/** The API form of a stored row at `now` (lossProtection value in USDT with 6 decimals, speed in whole percent). */
export function toVoucherDto(row: VoucherRow, now: number): Voucher {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  return {
    id: row.id,
    kind: row.kind,
    value: row.kind === 'lossProtection' ? formatMinor(parseMinor(row.value), 'USDT') : String(Number(row.value)),
    status: effectiveStatus(row.status, expiresAt, now),
    expiresAt,
    source: row.source,
    usedRef: row.used_ref,
    mergedInto: row.merged_into === null ? null : Number(row.merged_into),
    createdAt: Number(row.created_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

async function inTransaction<T>(db: Db, run: (trx: Db) => Promise<T>): Promise<T> {
  return transact(db, run);
}

/**
 * Grants the welcome vouchers once (source 'welcome'); idempotent. Returns the vouchers it created
 * (empty when the account already had them) so the caller can publish them.
 */
export async function ensureWelcomeVouchers(db: Db, userId: number, now: number): Promise<Voucher[]> {
  return inTransaction(db, async (trx) => {
    const had = await trx.selectFrom('vouchers').select('id').where('user_id', '=', userId).where('source', '=', 'welcome').executeTakeFirst();
    if (had) return [];
    const created: Voucher[] = [];
    for (const w of WELCOME_VOUCHERS) {
      const row = await trx
        .insertInto('vouchers')
        .values({
          user_id: userId, kind: w.kind, value: w.value, status: 'use', source: 'welcome',
          expires_at: w.validDays === null ? null : now + w.validDays * DAY_MS,
          used_ref: null, merged_into: null, created_at: now, used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      created.push(toVoucherDto(row, now));
    }
    return created;
  });
}

/** Persists the derived expiry of the user's vouchers; returns those that changed (for frames). */
export async function expireDue(db: Db, userId: number, now: number): Promise<Voucher[]> {
  const rows = await db
    .updateTable('vouchers')
    .set({ status: 'expired' })
    .where('user_id', '=', userId)
    .where('status', '=', 'use')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .returningAll()
    .execute();
  return rows.map((r) => toVoucherDto(r, now));
}

/** Publishes one 'voucher' frame per changed voucher (no-op without a bus). */
export function publishVouchers(bus: UserEventBus | undefined, userId: number, vouchers: readonly Voucher[]): void {
  if (!bus) return;
  for (const v of vouchers) bus.publish(userId, { type: 'voucher', data: v });
}

/**
 * GET /vouchers: grants the welcome vouchers if due, persists expiries, then one page, newest
 * first, filtered by kind and (derived) status. Vouchers that changed are published on `bus`.
 */
export async function listVouchers(db: Db, userId: number, q: VoucherListQuery, now: number, bus?: UserEventBus): Promise<Page<Voucher>> {
  const changed = [...(await ensureWelcomeVouchers(db, userId, now)), ...(await expireDue(db, userId, now))];
  publishVouchers(bus, userId, changed);
  let base = db.selectFrom('vouchers').where('user_id', '=', userId);
  if (q.kind) base = base.where('kind', '=', q.kind);
  if (q.status) base = base.where('status', '=', q.status);
  return pageOf(base, q, ['created_at', 'id'], (qb) => qb.selectAll(), (r) => toVoucherDto(r, now));
}

/** Input of {@link consumeVoucher}. */
export interface ConsumeVoucherInput {
  userId: number;
  voucherId: number;
  kind: VoucherKind;
  /** What consumes it, stored in used_ref (e.g. 'compensation:12'). */
  ref: string;
  now: number;
}

/**
 * Marks a usable, unexpired voucher of `kind` owned by `userId` as `used` (used_ref = ref,
 * used_at = now). `db` may be the caller's transaction (the compensation claim/boost), so the use
 * rolls back with it. The UPDATE is conditional on status='use' and not expired: of two concurrent
 * uses, exactly one succeeds. Messages from VOUCHER_MSG: notFound (missing or someone else's),
 * wrongKind, notUsable (used, merged, expired). The caller publishes the returned voucher.
 */
export async function consumeVoucher(db: Db, a: ConsumeVoucherInput): Promise<{ ok: true; voucher: Voucher } | { ok: false; msg: string }> {
  await ensureWelcomeVouchers(db, a.userId, a.now);
  const row = await db.selectFrom('vouchers').selectAll().where('id', '=', a.voucherId).where('user_id', '=', a.userId).executeTakeFirst();
  if (!row) return { ok: false, msg: VOUCHER_MSG.notFound };
  if (row.kind !== a.kind) return { ok: false, msg: VOUCHER_MSG.wrongKind };
  if (!isUsable(row.status, row.expires_at === null ? null : Number(row.expires_at), a.now)) return { ok: false, msg: VOUCHER_MSG.notUsable };
  const updated = await db
    .updateTable('vouchers')
    .set({ status: 'used', used_ref: a.ref, used_at: a.now })
    .where('id', '=', row.id)
    .where('user_id', '=', a.userId)
    .where('status', '=', 'use')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', a.now)]))
    .returningAll()
    .executeTakeFirst();
  if (!updated) return { ok: false, msg: VOUCHER_MSG.notUsable };
  return { ok: true, voucher: toVoucherDto(updated, a.now) };
}

/** Thrown inside the merge transaction to roll it back with an envelope rejection. */
class MergeAbort extends Error {
  constructor(
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

export type MergeOutcome = { ok: true; voucher: Voucher; merged: Voucher[] } | { ok: false; code: number; msg: string };

/**
 * POST /vouchers/merge: 2..10 distinct usable vouchers of one kind owned by the user become one new
 * usable voucher (source 'merge', value and expiry from rules.mergeResult); the inputs become
 * `merged` with merged_into = the new id. One transaction; any missing/foreign (notFound),
 * unusable (notUsable) or mixed-kind (mergeKinds) id rejects the whole merge and changes nothing.
 */
export async function mergeVouchers(db: Db, a: { userId: number; ids: readonly number[]; now: number }): Promise<MergeOutcome> {
  const ids = [...new Set(a.ids)];
  if (ids.length < MERGE_MIN || ids.length > MERGE_MAX) return { ok: false, code: Code.badRequest, msg: VOUCHER_MSG.mergeCount };
  try {
    return await inTransaction(db, async (trx) => {
      const rows = await trx.selectFrom('vouchers').selectAll().where('id', 'in', ids).where('user_id', '=', a.userId).execute();
      if (rows.length !== ids.length) throw new MergeAbort(Code.notFound, VOUCHER_MSG.notFound);
      const inputs = rows.map((r) => ({ kind: r.kind, value: r.value, expiresAt: r.expires_at === null ? null : Number(r.expires_at), status: r.status }));
      if (inputs.some((i) => !isUsable(i.status, i.expiresAt, a.now))) throw new MergeAbort(Code.conflict, VOUCHER_MSG.notUsable);
      const kind = inputs[0]?.kind;
      if (kind === undefined || inputs.some((i) => i.kind !== kind)) throw new MergeAbort(Code.badRequest, VOUCHER_MSG.mergeKinds);
      const result = mergeResult(kind, inputs);
      const created = await trx
        .insertInto('vouchers')
        .values({
          user_id: a.userId, kind, value: result.value, status: 'use', source: 'merge', expires_at: result.expiresAt,
          used_ref: null, merged_into: null, created_at: a.now, used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const merged = await trx
        .updateTable('vouchers')
        .set({ status: 'merged', merged_into: created.id, used_at: a.now })
        .where('id', 'in', ids)
        .where('user_id', '=', a.userId)
        .where('status', '=', 'use')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', a.now)]))
        .returningAll()
        .execute();
      if (merged.length !== ids.length) throw new MergeAbort(Code.conflict, VOUCHER_MSG.notUsable);
      return { ok: true as const, voucher: toVoucherDto(created, a.now), merged: merged.map((r) => toVoucherDto(r, a.now)) };
    });
  } catch (e) {
    if (e instanceof MergeAbort) return { ok: false, code: e.code, msg: e.message };
    throw e;
  }
}
