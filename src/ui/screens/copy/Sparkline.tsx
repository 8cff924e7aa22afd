import { sparkPoints } from './copyModel.ts';

/** A small PnL chart: the cumulative PnL series as an SVG line, green when it ends up, red when down. */
export function Sparkline({ series, label, width = 120, height = 36 }: { series: readonly string[]; label: string; width?: number; height?: number }) {
  const values = series.map(Number);
  const last = values.at(-1) ?? 0;
  const cls = last > 0 ? 'cp-spark cp-spark--up' : last < 0 ? 'cp-spark cp-spark--down' : 'cp-spark';
  return (
    <svg className={cls} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <polyline fill="none" strokeWidth="1.6" strokeLinejoin="round" strokeLinecap="round" points={sparkPoints(values, width, height)} />
    </svg>
  );
}
