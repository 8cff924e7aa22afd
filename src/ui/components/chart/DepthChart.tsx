import { useEffect, useRef } from 'react';
import type { DepthPoint } from '../../../streams/orderBookSelectors.ts';
import { formatNumber } from '../../../format/number.ts';
import { depthGeometry } from './depthGeometry.ts';
import { withAlpha } from './chartData.ts';

export interface DepthChartProps {
  bids: readonly DepthPoint[];
  asks: readonly DepthPoint[];
  up: string;
  down: string;
  text: string;
  pricePrecision: number;
  height?: number;
}

/**
 * Market depth (cumulative bid and ask sizes against price) on a plain canvas: two filled
 * staircases from {@link depthGeometry}, with the edge prices as labels. Redrawn when the
 * (memoised) curves change; the caller throttles to animation frames.
 */
export function DepthChart({ bids, asks, up, down, text, pricePrecision, height = 220 }: DepthChartProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const width = canvas.parentElement?.clientWidth ?? 0;
    const dpr = globalThis.devicePixelRatio || 1;
    canvas.width = Math.floor(width * dpr);
    canvas.height = Math.floor(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const ctx = typeof canvas.getContext === 'function' ? canvas.getContext('2d') : null;
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const plotH = height - 18;
    const g = depthGeometry(bids, asks, width, plotH);
    if (!g) return;
    const fill = (pts: Array<[number, number]>, color: string) => {
      ctx.beginPath();
      const first = pts[0];
      if (!first) return;
      ctx.moveTo(first[0], plotH);
      for (const [x, y] of pts) ctx.lineTo(x, y);
      const last = pts[pts.length - 1] ?? first;
      ctx.lineTo(last[0], plotH);
      ctx.closePath();
      ctx.fillStyle = withAlpha(color, 0.18);
      ctx.fill();
      ctx.beginPath();
      ctx.moveTo(first[0], first[1]);
      for (const [x, y] of pts) ctx.lineTo(x, y);
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    };
    fill(g.bids, up);
    fill(g.asks, down);
    ctx.fillStyle = text;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'left';
    ctx.fillText(formatNumber(g.minPrice, pricePrecision), 2, height - 2);
    ctx.textAlign = 'center';
    ctx.fillText(formatNumber((g.minPrice + g.maxPrice) / 2, pricePrecision), width / 2, height - 2);
    ctx.textAlign = 'right';
    ctx.fillText(formatNumber(g.maxPrice, pricePrecision), width - 2, height - 2);
    ctx.textBaseline = 'top';
    ctx.fillText(formatNumber(g.maxTotal, 3), width - 2, 2);
  }, [bids, asks, up, down, text, pricePrecision, height]);
  return (
    <div className="rf-depth" data-testid="depth-chart">
      <canvas ref={ref} />
    </div>
  );
}
