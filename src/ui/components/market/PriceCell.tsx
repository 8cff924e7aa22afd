import { useEffect, useRef, useState } from 'react';
import { formatPrice } from '../../../format/number.ts';

export interface PriceCellProps {
  value: number | undefined;
  decimals: number;
  /** Direction of the 24 h change, colouring the price like exchanges do. */
  trend: 'up' | 'down' | 'flat';
}

/**
 * The last price, coloured by the 24 h direction, that flashes briefly when it changes so
 * a live tick is visible. The flash is keyed on the value: equal re-renders do not flash.
 */
export function PriceCell({ value, decimals, trend }: PriceCellProps) {
  const prev = useRef(value);
  const [flash, setFlash] = useState<'up' | 'down' | null>(null);
  useEffect(() => {
    const before = prev.current;
    prev.current = value;
    if (before === undefined || value === undefined || before === value) return;
    setFlash(value > before ? 'up' : 'down');
    const id = window.setTimeout(() => setFlash(null), 600);
    return () => window.clearTimeout(id);
  }, [value]);
  return (
    <span className={`mk-price mk-trend--${trend}${flash ? ` mk-flash--${flash}` : ''}`} data-testid="price">
      {formatPrice(value, decimals)}
    </span>
  );
}
