import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { formatPercent, formatPrice, trendOf } from '../../../format/number.ts';
import { useMarketTickers } from '../../hooks/useMarketTickers.ts';

/** Symbols whose code or name contains the query (case-insensitive), in listing order. */
export function filterSymbols(symbols: readonly SymbolInfo[], query: string): SymbolInfo[] {
  const q = query.trim().toUpperCase();
  if (q === '') return [...symbols];
  return symbols.filter((s) => s.symbol.includes(q) || s.base.includes(q) || s.name.toUpperCase().includes(q));
}

/**
 * The pair button in the trade header; opens a searchable list of the instruments of the
 * screen's contract kind. Escape or a click outside closes it.
 */
export function PairSwitcher({ symbol, symbols, onPick }: { symbol: string; symbols: readonly SymbolInfo[] | null; onPick: (symbol: string) => void }) {
  const { t } = useTranslation('trade');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const list = useMemo(() => filterSymbols(symbols ?? [], query), [symbols, query]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className="rf-pair" ref={box}>
      <button type="button" className="rf-pair-btn" aria-expanded={open} aria-haspopup="listbox" onClick={() => setOpen((o) => !o)} data-testid="pair-switcher">
        <strong>{symbol}</strong>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="rf-pair-pop">
          <input autoFocus type="search" value={query} placeholder={t('searchPair')} aria-label={t('searchPair')} onChange={(e) => setQuery(e.target.value)} />
          <PairList
            list={list}
            symbol={symbol}
            onPick={(picked) => {
              setOpen(false);
              setQuery('');
              onPick(picked);
            }}
          />
        </div>
      )}
    </div>
  );
}

/**
 * The open list: each pair with its last price and 24 h change (issue 26), from the core's market
 * tickers, read only while the list is open.
 */
function PairList({ list, symbol, onPick }: { list: readonly SymbolInfo[]; symbol: string; onPick: (symbol: string) => void }) {
  const { t } = useTranslation('trade');
  const { lookup } = useMarketTickers();
  return (
    <ul role="listbox" aria-label={t('pairs')}>
      {list.length === 0 && <li className="rf-pair-empty">{t('noPairs')}</li>}
      {list.map((s) => {
        const tk = lookup(s.symbol);
        const trend = tk ? trendOf(tk.changePct) : 'flat';
        return (
          <li key={s.symbol} role="option" aria-selected={s.symbol === symbol} data-testid="pair-option">
            <button type="button" onClick={() => onPick(s.symbol)}>
              <strong>{s.symbol}</strong>
              <span>{s.name}</span>
              <span className="rf-pair-quote rf-num">
                <span data-testid="pair-last">{tk ? formatPrice(tk.last, s.pricePrecision) : '--'}</span>
                <span className={trend === 'up' ? 'rf-up' : trend === 'down' ? 'rf-down' : ''} data-testid="pair-change">
                  {tk ? formatPercent(tk.changePct) : '--'}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
