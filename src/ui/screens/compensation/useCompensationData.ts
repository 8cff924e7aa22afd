import { useEffect, useState } from 'react';
import { COMPENSATION_PATHS } from '../../../protocol/compensation.ts';
import type { CompensationList } from '../../../protocol/compensation.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { VOUCHER_PATHS } from '../../../protocol/vouchers.ts';
import type { Voucher, VoucherKind } from '../../../protocol/vouchers.ts';
import { useApi, useUserFrames } from '../../app/AppCoreProvider.tsx';
import { useLiveGet, type Load } from '../../hooks/useLiveGet.ts';
import type { StatusFilter } from './compensationModel.ts';

export type ListLoad = Load<CompensationList>;

export const PAGE_SIZE = 10;

const RELOAD_ON = ['compensation'];

/**
 * One page of the user's compensation orders (with the summary), following every `compensation`
 * user-socket frame (created, claimed, paid, boosted, withdrawn), so the list and the summary
 * follow the server live.
 */
export function useCompensationList(filter: StatusFilter, page: number): { load: ListLoad; reload: () => void } {
  return useLiveGet<CompensationList>(COMPENSATION_PATHS.orders, { page, pageSize: PAGE_SIZE, status: filter === 'all' ? undefined : filter }, RELOAD_ON);
}

/**
 * The user's usable vouchers of one kind (GET /api/vouchers?kind=&status=use), for the claim and
 * boost dialogs; empty while loading, when `kind` is null, or if the call fails (the dialog then
 * simply offers none). Follows `voucher` frames.
 */
export function useUsableVouchers(kind: VoucherKind | null): Voucher[] {
  const api = useApi();
  const frames$ = useUserFrames();
  const [list, setList] = useState<Voucher[]>([]);
  const [nonce, setNonce] = useState(0);

  useEffect(() => {
    if (kind === null) return;
    let live = true;
    api
      .get<Page<Voucher>>(VOUCHER_PATHS.list, { kind, status: 'use', page: 1, pageSize: 50 })
      .then((p) => {
        if (live) setList(Array.isArray(p?.list) ? p.list.filter((v) => v.kind === kind && v.status === 'use') : []);
      })
      .catch(() => {
        if (live) setList([]);
      });
    return () => {
      live = false;
    };
  }, [api, kind, nonce]);

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      if (f.type === 'voucher') setNonce((n) => n + 1);
    });
    return () => sub.unsubscribe();
  }, [frames$]);

  return kind === null ? [] : list;
}
