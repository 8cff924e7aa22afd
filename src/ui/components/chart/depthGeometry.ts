import type { DepthPoint } from '../../../streams/orderBookSelectors.ts';

/**
 * Geometry of the market depth chart, pure so it can be tested without a canvas: the bid
 * curve is a staircase from the best bid leftwards, the ask curve from the best ask
 * rightwards, both on one price axis centred on the mid and one shared cumulative-size axis.
 */

export interface DepthGeometry {
  /** Polyline points in pixels (x right, y down), starting on the baseline at the best price. */
  bids: Array<[number, number]>;
  asks: Array<[number, number]>;
  minPrice: number;
  maxPrice: number;
  maxTotal: number;
}

/**
 * Maps the cumulative curves to a `width × height` box. The price range is symmetric around
 * the mid so the spread gap sits in the middle; `maxTotal` is the larger of the two sides'
 * totals. Returns null when either side is empty.
 */
export function depthGeometry(bids: readonly DepthPoint[], asks: readonly DepthPoint[], width: number, height: number): DepthGeometry | null {
  const bestBid = bids[0];
  const bestAsk = asks[0];
  const lastBid = bids[bids.length - 1];
  const lastAsk = asks[asks.length - 1];
  if (!bestBid || !bestAsk || !lastBid || !lastAsk || width <= 0 || height <= 0) return null;
  const mid = (bestBid.price + bestAsk.price) / 2;
  const half = Math.max(mid - lastBid.price, lastAsk.price - mid, (bestAsk.price - bestBid.price) / 2) || 1;
  const minPrice = mid - half;
  const maxPrice = mid + half;
  const maxTotal = Math.max(lastBid.total, lastAsk.total) || 1;
  const x = (p: number) => ((p - minPrice) / (maxPrice - minPrice)) * width;
  const y = (t: number) => height - (t / maxTotal) * height;
  const stairs = (pts: readonly DepthPoint[], edge: number): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    let prevY = height;
    for (const p of pts) {
      const px = x(p.price);
      out.push([px, prevY]);
      prevY = y(p.total);
      out.push([px, prevY]);
    }
    out.push([edge, prevY]);
    return out;
  };
  return { bids: stairs(bids, 0), asks: stairs(asks, width), minPrice, maxPrice, maxTotal };
}
