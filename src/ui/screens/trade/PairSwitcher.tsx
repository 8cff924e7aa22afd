import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SymbolInfo } from '../../../protocol/market.ts';

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
          <ul role="listbox" aria-label={t('pairs')}>
            {list.length === 0 && <li className="rf-pair-empty">{t('noPairs')}</li>}
            {list.map((s) => (
              <li key={s.symbol} role="option" aria-selected={s.symbol === symbol}>
                <button
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    setQuery('');
                    onPick(s.symbol);
                  }}
                >
                  <strong>{s.symbol}</strong>
                  <span>{s.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
