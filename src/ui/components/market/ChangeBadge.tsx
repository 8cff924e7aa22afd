import { formatPercent, trendOf } from '../../../format/number.ts';

export interface ChangeBadgeProps {
  /** 24 h change in percent (1.5 = +1.5 %). */
  pct: number | undefined;
  /** `badge`: a filled pill (mobile list, hot cards); `text`: coloured text (tables). */
  variant?: 'badge' | 'text';
}

/** The 24 h change with sign and up/down color (SPEC §9). */
export function ChangeBadge({ pct, variant = 'text' }: ChangeBadgeProps) {
  const trend = trendOf(pct);
  return (
    <span className={`mk-change mk-change--${variant} mk-trend--${trend}`} data-testid="change">
      {formatPercent(pct)}
    </span>
  );
}
