import { useMemo } from 'react';
import type { ViewValue } from '../../../core/viewState.ts';
import { useViewState } from '../../hooks/useViewState.ts';
import { useTranslation } from 'react-i18next';
import { KLINE_INTERVALS, type Candle, type KlineInterval } from '../../../protocol/market.ts';
import { MAIN_INDICATORS, SUB_INDICATORS, type MainIndicatorName, type SubIndicatorName } from '../../../indicators/registry.ts';
import { CandleChart, type ChartTheme } from './CandleChart.tsx';
import type { ChartPalette } from './chartData.ts';

const DEFAULT_MAIN: readonly MainIndicatorName[] = ['MA'];
const isMainList = (v: ViewValue): v is readonly MainIndicatorName[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && (MAIN_INDICATORS as readonly string[]).includes(x));
const isSub = (v: ViewValue): v is SubIndicatorName | null => v === null || (typeof v === 'string' && (SUB_INDICATORS as readonly string[]).includes(v));
const isBool = (v: ViewValue): v is boolean => typeof v === 'boolean';

/** Indicator line colours (theme-neutral, readable on both backgrounds). */
export const INDICATOR_LINE_COLORS = ['#f0b90b', '#3b82f6', '#c084fc', '#14b8a6', '#f97316'] as const;

export interface ChartPanelProps {
  candles: readonly Candle[];
  interval: KlineInterval;
  onInterval: (i: KlineInterval) => void;
  pricePrecision: number;
  tickSize: number;
  up: string;
  down: string;
  theme: ChartTheme;
  resetKey: string;
}

/**
 * Interval bar (the eight SPEC §9 intervals), indicator menu (main overlays: any of six;
 * sub pane: one of twelve or none) and the candle chart.
 */
export function ChartPanel({ candles, interval, onInterval, pricePrecision, tickSize, up, down, theme, resetKey }: ChartPanelProps) {
  const { t } = useTranslation('trade');
  // View state as intents (src/core/viewState.ts): recorded, and shown again by a replay.
  const [main, setMain] = useViewState<readonly MainIndicatorName[]>('chart.main', DEFAULT_MAIN, isMainList);
  const [sub, setSub] = useViewState<SubIndicatorName | null>('chart.sub', 'VOL', isSub);
  const [menu, setMenu] = useViewState<boolean>('chart.indicatorMenu', false, isBool);
  const palette = useMemo<ChartPalette>(() => ({ up, down, lines: INDICATOR_LINE_COLORS }), [up, down]);
  const toggleMain = (n: MainIndicatorName) => setMain(main.includes(n) ? main.filter((x) => x !== n) : [...main, n]);
  return (
    <div className="rf-chartp">
      <div className="rf-chartp-bar">
        <div className="rf-chartp-intervals" role="tablist" aria-label={t('interval')}>
          {KLINE_INTERVALS.map((i) => (
            <button key={i} type="button" role="tab" aria-selected={i === interval} className={i === interval ? 'is-active' : ''} onClick={() => onInterval(i)}>
              {t(`iv_${i}`)}
            </button>
          ))}
        </div>
        <div className="rf-chartp-ind">
          <button type="button" aria-expanded={menu} onClick={() => setMenu(!menu)} data-testid="indicator-menu">
            {t('indicators')}
          </button>
          {menu && (
            <div className="rf-chartp-menu" role="dialog" aria-label={t('indicators')}>
              <p>{t('mainIndicators')}</p>
              <div className="rf-chartp-chips">
                {MAIN_INDICATORS.map((n) => (
                  <label key={n}>
                    <input type="checkbox" checked={main.includes(n)} onChange={() => toggleMain(n)} /> {n}
                  </label>
                ))}
              </div>
              <p>{t('subIndicators')}</p>
              <div className="rf-chartp-chips">
                <label>
                  <input type="radio" name="sub-ind" checked={sub === null} onChange={() => setSub(null)} /> {t('none')}
                </label>
                {SUB_INDICATORS.map((n) => (
                  <label key={n}>
                    <input type="radio" name="sub-ind" checked={sub === n} onChange={() => setSub(n)} /> {n}
                  </label>
                ))}
              </div>
            </div>
          )}
        </div>
      </div>
      <CandleChart candles={candles} pricePrecision={pricePrecision} tickSize={tickSize} palette={palette} theme={theme} main={main} sub={sub} resetKey={resetKey} />
    </div>
  );
}
