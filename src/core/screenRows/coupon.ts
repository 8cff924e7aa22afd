import { fromPromise } from 'xstate';
import { voucherMachine, type MergeRequest } from '../../machines/voucherMachine.ts';
import { isVoucherFrame, VOUCHER_PATHS, type Voucher } from '../../protocol/vouchers.ts';
import { row } from './row.ts';

/** The coupons' merge (src/ui/screens/coupon). */
export const coupon = row({
  logic: ({ api }) =>
    voucherMachine.provide({
      actors: { merge: fromPromise<Voucher, MergeRequest>(({ input, signal }) => api.post<Voucher>(VOUCHER_PATHS.merge, { ids: input.ids }, { signal })) },
    }),
  follow: (a, f) => {
    if (isVoucherFrame(f)) a.send({ type: 'voucher.frame', voucher: f.data });
  },
});
