import { sparkPoints, sparkZeroY } from '../../components/copy/copyModel.ts';

/**
 * A PnL chart: the cumulative PnL series as an SVG line, green when it ends up, red when down.
 * `fluid`: as wide as its container (the trader page), the line drawn in a `width`×`height` box
 * stretched to fit (strokes keep their width) with a dashed line at zero.
 */
export function Sparkline({ series, label, width = 120, height = 36, fluid = false }: { series: readonly string[]; label: string; width?: number; height?: number; fluid?: boolean }) {
  const values = series.map(Number);
  const last = values.at(-1) ?? 0;
  const cls = last > 0 ? 'cp-spark cp-spark--up' : last < 0 ? 'cp-spark cp-spark--down' : 'cp-spark';
  const zero = fluid ? sparkZeroY(values, height) : null;
  return (
    <svg
      className={fluid ? `${cls} cp-spark--fluid` : cls}
      width={fluid ? '100%' : width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio={fluid ? 'none' : undefined}
      role="img"
      aria-label={label}
    >
      {zero !== null && <line className="cp-spark__zero" x1="0" x2={width} y1={zero} y2={zero} vectorEffect="non-scaling-stroke" />}
      <polyline fill="none" strokeWidth="1.6" strokeLinejoin="round" strokeLinecap="round" vectorEffect={fluid ? 'non-scaling-stroke' : undefined} points={sparkPoints(values, width, height)} />
    </svg>
  );
}
