import { COPY_PATHS } from '../../../protocol/copy.ts';
import type { CopyFollow, CopyOrder, CopyPosition } from '../../../protocol/copy.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import type { Load } from '../../hooks/useLiveGet.ts';

/** Copy frames (a mirrored order, a skipped one, a follow change) and position frames reload these. */
export const ON_COPY = ['copy'];
const NONE = {};
const RECENT = { page: 1, pageSize: 8 };

export function useMyFollows(): { load: Load<CopyFollow[]>; reload: () => void } {
  return useLiveGet<CopyFollow[]>(COPY_PATHS.follows, NONE, ON_COPY);
}

export function useMyCopyPositions(): { load: Load<CopyPosition[]>; reload: () => void } {
  return useLiveGet<CopyPosition[]>(COPY_PATHS.positions, NONE, ON_COPY);
}

export function useMyCopyOrders(): { load: Load<Page<CopyOrder>>; reload: () => void } {
  return useLiveGet<Page<CopyOrder>>(COPY_PATHS.orders, RECENT, ON_COPY);
}
