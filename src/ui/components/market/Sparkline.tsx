import { useMemo } from 'react';

export interface SparklineProps {
  points: readonly number[];
  width?: number;
  height?: number;
  /** Colors the line with --up or --down. */
  trend: 'up' | 'down' | 'flat';
}

/**
 * A tiny SVG price line of the recent ticks. Non-finite points are skipped; a flat series
 * is drawn through the middle.
 */
export function Sparkline({ points, width = 96, height = 32, trend }: SparklineProps) {
  const d = useMemo(() => sparkPath(points, width, height), [points, width, height]);
  return (
    <svg className={`mk-spark mk-spark--${trend}`} viewBox={`0 0 ${width} ${height}`} width={width} height={height} aria-hidden="true">
      {d && <path d={d} fill="none" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />}
    </svg>
  );
}

/** The SVG path of a series scaled into the box, or '' for fewer than two finite points. */
export function sparkPath(points: readonly number[], width: number, height: number): string {
  const ys = points.filter((p) => Number.isFinite(p));
  if (ys.length < 2) return '';
  const min = Math.min(...ys);
  const max = Math.max(...ys);
  const span = max - min;
  const pad = 2;
  const step = (width - pad * 2) / (ys.length - 1);
  return ys
    .map((y, i) => {
      const x = pad + i * step;
      const ny = span === 0 ? height / 2 : pad + (1 - (y - min) / span) * (height - pad * 2);
      return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${ny.toFixed(1)}`;
    })
    .join(' ');
}
