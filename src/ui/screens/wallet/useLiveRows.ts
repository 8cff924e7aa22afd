import { useEffect, useMemo, useState } from 'react';
import type { Page } from '../../../protocol/envelope.ts';
import { useUserFrames } from '../../app/AppCoreProvider.tsx';
import { useLiveGet, type Load } from '../../hooks/useLiveGet.ts';
import { mergeLive } from '../../components/wallet/walletModel.ts';

/**
 * The newest rows of a money list (deposits or withdrawals) kept live: the first page is fetched
 * once (and on `reload()`), and every user-socket frame of `frameType` updates its row at once
 * (mergeLive) without waiting for a refetch. `onFrame` sees each pushed row (toasts).
 */
export function useLiveRows<T extends { id: number; time: number; updatedAt?: number }>(
  path: string,
  frameType: string,
  max: number,
  onFrame?: (row: T) => void,
): { load: Load<Page<T>>; rows: T[]; reload: () => void } {
  const frames$ = useUserFrames();
  const { load, reload } = useLiveGet<Page<T>>(path, { page: 1, pageSize: max }, []);
  const [live, setLive] = useState<ReadonlyMap<number, T>>(new Map());

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      if (f.type !== frameType || typeof f.data !== 'object' || f.data === null) return;
      const row = f.data as T;
      setLive((m) => new Map(m).set(row.id, row));
      onFrame?.(row);
    });
    return () => sub.unsubscribe();
  }, [frames$, frameType, onFrame]);

  const rows = useMemo(() => mergeLive(load.status === 'ready' ? load.data.list : [], live, max), [load, live, max]);
  return { load, rows, reload };
}
