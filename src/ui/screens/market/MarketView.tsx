import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ViewValue } from '../../../core/viewState.ts';
import type { ContractKind, SymbolInfo, Ticker } from '../../../protocol/market.ts';
import { CategoryTabs } from '../../components/market/CategoryTabs.tsx';
import { oneOf } from '../../hooks/useViewState.ts';
import { ConnectionBadge } from '../../components/market/ConnectionBadge.tsx';
import { HotCard, HotCardPlaceholder } from '../../components/market/HotCard.tsx';
import { MarketTable } from '../../components/market/MarketTable.tsx';
import { RankList } from '../../components/market/RankList.tsx';
import { SearchBox } from '../../components/market/SearchBox.tsx';
import {
  CATEGORY_TABS,
  joinRows,
  nextSort,
  selectHot,
  selectRows,
  selectTopGainers,
  selectTopVolume,
  SORT_KEYS,
  tradePath,
  type CategoryTab,
  type Sort,
  type SortKey,
} from '../../components/market/marketList.ts';
import '../../components/market/market.css';

export interface MarketViewProps {
  /** Instruments from GET /api/market/symbols; `null` while loading. */
  symbols: readonly SymbolInfo[] | null;
  /** Latest ticker per symbol. Its identity must change whenever any ticker changes (memo key). */
  lookup: (symbol: string) => Ticker | undefined;
  /** Recent last prices per symbol (sparklines). */
  history: (symbol: string) => readonly number[];
  /** The list's trend column (default true; MarketScreen leaves it out on phones, where CSS hides it anyway). */
  trendColumn?: boolean;
  connected: boolean;
  everConnected: boolean;
  loadError: boolean;
  favorites: ReadonlySet<string>;
  onToggleFavorite: (symbol: string) => void;
  onOpen: (path: string) => void;
  /**
   * The list's kind tab, category tab and sort, when the caller keeps them (MarketScreen: view
   * state in the core, so a replay shows the list as the user had it). Without it the view keeps
   * them itself, starting from {@link DEFAULT_LIST_STATE}.
   */
  listState?: { value: MarketListState; onChange: (next: MarketListState) => void };
}

/** What the user picked above the list (the search box stays local: typed text is not view state). */
export interface MarketListState {
  kind: ContractKind;
  category: CategoryTab;
  sort: Sort;
}

const KINDS: readonly ContractKind[] = ['perp', 'std'];

export const DEFAULT_LIST_STATE: MarketListState = { kind: 'perp', category: 'crypto', sort: null };

const isRecord = (v: ViewValue | undefined): v is { readonly [key: string]: ViewValue } => typeof v === 'object' && v !== null && !Array.isArray(v);
const SORT_DIRS = ['asc', 'desc'] as const;

/** What the view store may hold as a {@link MarketListState} (a replayed log is external data). */
export function isMarketListState(v: ViewValue): boolean {
  if (!isRecord(v) || Object.keys(v).length !== 3) return false;
  const { kind = null, category = null, sort } = v;
  const sortOk = sort === null || (isRecord(sort) && Object.keys(sort).length === 2 && oneOf(SORT_KEYS)(sort.key ?? null) && oneOf(SORT_DIRS)(sort.dir ?? null));
  return oneOf(KINDS)(kind) && oneOf(CATEGORY_TABS)(category) && sortOk;
}
const HOT_CARDS = 4;
const BOARD_ROWS = 5;

/**
 * The Market overview (/market, SPEC §2): hot coin cards, top gainers, top volume and the
 * contract lists with kind tabs, category tabs, search and sortable columns. Pure view over
 * props plus its own UI state (tab, search, sort), so tests render it with real data and
 * real reducers; MarketScreen connects it to the app core.
 */
export function MarketView(props: MarketViewProps) {
  const { symbols, lookup, history, connected, everConnected, loadError, favorites, onToggleFavorite, onOpen, listState, trendColumn = true } = props;
  const { t } = useTranslation('market');
  const [ownList, setOwnList] = useState<MarketListState>(DEFAULT_LIST_STATE);
  const picked = listState?.value ?? ownList;
  const setPicked = listState?.onChange ?? setOwnList;
  const { kind, category, sort } = picked;
  const setKind = (k: ContractKind) => setPicked({ ...picked, kind: k });
  const setCategory = (c: CategoryTab) => setPicked({ ...picked, category: c });
  const [search, setSearch] = useState('');

  const rows = useMemo(() => joinRows(symbols ?? [], lookup), [symbols, lookup]);
  const kindRows = useMemo(() => rows.filter((r) => r.info.kinds.includes(kind)), [rows, kind]);
  const hot = useMemo(() => selectHot(kindRows, HOT_CARDS), [kindRows]);
  const gainers = useMemo(() => selectTopGainers(kindRows, BOARD_ROWS), [kindRows]);
  const volume = useMemo(() => selectTopVolume(kindRows, BOARD_ROWS), [kindRows]);
  const list = useMemo(
    () => selectRows(rows, { kind, category, search, favorites }, sort),
    [rows, kind, category, search, favorites, sort],
  );

  const pathOf = (symbol: string) => tradePath(kind, symbol);
  const onSort = (key: SortKey) => setPicked({ ...picked, sort: nextSort(sort, key) });
  const emptyText = symbols === null ? t(loadError ? 'loadError' : 'loading') : category === 'favorites' && favorites.size === 0 && !search ? t('empty.favorites') : t('empty');

  return (
    <div className="mk-page" data-testid="market-page">
      <header className="mk-head">
        <div>
          <h1 className="mk-title">{t('title')}</h1>
          <p className="mk-subtitle">{t('subtitle')}</p>
        </div>
        <ConnectionBadge connected={connected} everConnected={everConnected} />
      </header>

      <section className="mk-boards">
        <section className="mk-hot" data-testid="hot-coins">
          <h2 className="mk-rank__title">{t('hotCoins')}</h2>
          <div className="mk-hot__cards">
            {hot.map((row) => (
              <HotCard
                key={row.info.symbol}
                row={row}
                href={pathOf(row.info.symbol)}
                onOpen={onOpen}
                points={history(row.info.symbol)}
                volumeLabel={t('col.volume')}
              />
            ))}
            {/* While loading, cards and rows of their final size hold the space (issue 30: CLS). */}
            {symbols === null && Array.from({ length: HOT_CARDS }, (_, i) => <HotCardPlaceholder key={i} />)}
          </div>
        </section>
        <RankList title={t('topGainers')} rows={gainers} metric="change" pathOf={pathOf} onOpen={onOpen} testId="top-gainers" placeholderRows={symbols === null ? BOARD_ROWS : 0} />
        <RankList title={t('topVolume')} rows={volume} metric="volume" pathOf={pathOf} onOpen={onOpen} testId="top-volume" placeholderRows={symbols === null ? BOARD_ROWS : 0} />
      </section>

      <section className="mk-list">
        <div className="mk-list__bar">
          <CategoryTabs
            idPrefix="mk-kind"
            variant="pill"
            label={t('title')}
            items={KINDS.map((k) => ({ key: k, label: t(`kind.${k}`) }))}
            value={kind}
            onChange={setKind}
          />
          <SearchBox value={search} onChange={setSearch} />
        </div>
        <CategoryTabs
          idPrefix="mk-cat"
          label={t('kind.' + kind)}
          items={CATEGORY_TABS.map((c) => ({ key: c, label: t(`cat.${c}`) }))}
          value={category}
          onChange={setCategory}
        />
        <MarketTable
          rows={list}
          kind={kind}
          favorites={favorites}
          onToggleFavorite={onToggleFavorite}
          sort={sort}
          onSort={onSort}
          onOpen={onOpen}
          history={trendColumn ? history : undefined}
          emptyText={emptyText}
        />
      </section>
    </div>
  );
}
