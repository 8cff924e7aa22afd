import type { Page } from '../../../protocol/envelope.ts';
import { VOUCHER_PATHS } from '../../../protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../../protocol/vouchers.ts';
import { useLiveGet, type Load } from '../../hooks/useLiveGet.ts';

export type VoucherLoad = Load<Page<Voucher>>;

export const PAGE_SIZE = 12;

const RELOAD_ON = ['voucher'];

/**
 * One page of the user's vouchers of `kind` with `status` (GET /api/vouchers), following `voucher`
 * user-socket frames (granted, used by a compensation claim or boost, merged, expired) live.
 */
export function useVoucherList(kind: VoucherKind, status: VoucherStatus, page: number): { load: VoucherLoad; reload: () => void } {
  return useLiveGet<Page<Voucher>>(VOUCHER_PATHS.list, { kind, status, page, pageSize: PAGE_SIZE }, RELOAD_ON);
}
