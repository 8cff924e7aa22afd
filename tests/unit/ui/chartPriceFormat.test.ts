import { describe, expect, it } from 'vitest';
import { chartPriceFormat } from '../../../src/ui/components/chart/CandleChart.tsx';

/** The chart's price axis reads like every other price on screen (issue 26 cosmetics). */
describe('chartPriceFormat', () => {
  it('groups thousands at the instrument precision and keeps the tick as the minimum move', () => {
    const f = chartPriceFormat(2, 0.1);
    expect(f.type).toBe('custom');
    expect(f.minMove).toBe(0.1);
    expect(f.formatter(67531.5)).toBe('67,531.50');
    expect(f.formatter(1234567.891)).toBe('1,234,567.89');
    expect(chartPriceFormat(4, 0.0001).formatter(0.35125)).toBe('0.3513');
  });
});
