import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { VOUCHER_PATHS } from '../../../protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../../protocol/vouchers.ts';
import { useApi, useUserFrames } from '../../app/AppCoreProvider.tsx';

export type VoucherLoad = { status: 'loading' } | { status: 'error'; msg: string } | { status: 'ready'; data: Page<Voucher> };

export const PAGE_SIZE = 12;

/**
 * One page of the user's vouchers of `kind` with `status` (GET /api/vouchers). Reloads when the
 * filter or page changes, on `reload()`, and on every `voucher` user-socket frame (granted, used
 * by a compensation claim or boost, merged, expired), so the list follows the server live. A stale
 * answer is ignored rather than aborted (an aborted call would surface as a network-error toast).
 */
export function useVoucherList(kind: VoucherKind, status: VoucherStatus, page: number): { load: VoucherLoad; reload: () => void } {
  const api = useApi();
  const frames$ = useUserFrames();
  const [load, setLoad] = useState<VoucherLoad>({ status: 'loading' });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    api
      .get<Page<Voucher>>(VOUCHER_PATHS.list, { kind, status, page, pageSize: PAGE_SIZE })
      .then((data) => {
        if (live) setLoad({ status: 'ready', data });
      })
      .catch((e: unknown) => {
        if (live) setLoad({ status: 'error', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api, kind, status, page, nonce]);

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      if (f.type === 'voucher') reload();
    });
    return () => sub.unsubscribe();
  }, [frames$, reload]);

  return { load, reload };
}
