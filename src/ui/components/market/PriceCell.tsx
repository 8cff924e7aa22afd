import { useRef } from 'react';
import { formatPrice } from '../../../format/number.ts';

export interface PriceCellProps {
  value: number | undefined;
  decimals: number;
  /** Direction of the 24 h change, colouring the price like exchanges do. */
  trend: 'up' | 'down' | 'flat';
}

/**
 * The last price, coloured by the 24 h direction, that flashes briefly when it changes so
 * a live tick is visible. The flash is a CSS animation (market.css `mk-flash-a/b`), restarted on
 * every change by switching between two identical animations: no timer. Equal re-renders do
 * not flash.
 */
export function PriceCell({ value, decimals, trend }: PriceCellProps) {
  const last = useRef<{ value: number | undefined; flash: 'up' | 'down' | null; n: number }>({ value, flash: null, n: 0 });
  const cur = last.current;
  if (cur.value !== value) {
    const moved = cur.value !== undefined && value !== undefined;
    last.current = { value, flash: moved ? (value > cur.value! ? 'up' : 'down') : null, n: cur.n + (moved ? 1 : 0) };
  }
  const { flash, n } = last.current;
  return (
    <span className={`mk-price mk-trend--${trend}${flash ? ` mk-flash--${flash} mk-flash-${n % 2 === 0 ? 'a' : 'b'}` : ''}`} data-testid="price">
      {formatPrice(value, decimals)}
    </span>
  );
}
