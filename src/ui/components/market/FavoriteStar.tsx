import type { MouseEvent } from 'react';

export interface FavoriteStarProps {
  symbol: string;
  active: boolean;
  onToggle: (symbol: string) => void;
  /** Its accessible name ('Add BTCUSDT to favourites'): the list translates it (issue 30: one translation hook per list, not per row). */
  label: string;
}

/**
 * The favourites star of a market row. It stops the click from reaching the row (which
 * would navigate to the trade screen) and exposes its state as `aria-pressed`.
 */
export function FavoriteStar({ symbol, active, onToggle, label }: FavoriteStarProps) {
  const onClick = (e: MouseEvent) => {
    e.stopPropagation();
    onToggle(symbol);
  };
  return (
    <button
      type="button"
      className={`mk-star${active ? ' mk-star--on' : ''}`}
      aria-pressed={active}
      aria-label={label}
      onClick={onClick}
    >
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
        <path d="M12 3.5l2.6 5.4 5.9.8-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.8z" />
      </svg>
    </button>
  );
}
