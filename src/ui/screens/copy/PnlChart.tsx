import { formatDateTime } from '../../../format/date.ts';
import { signedUsdt, sparkYTicks } from '../../components/copy/copyModel.ts';
import { Sparkline } from './Sparkline.tsx';

const W = 640;
const H = 140;

/**
 * The trader page's cumulative PnL chart with its axes (issue 26, Minor 19): the line (Sparkline,
 * stretched to the width), the values of its highest, lowest and zero points on the left (USDT),
 * and the dates of its first and last points below. Labels are HTML beside the SVG, so they keep
 * their size when the line stretches.
 */
export function PnlChart({ series, times, label, valueLabel }: { series: readonly string[]; times: readonly number[] | undefined; label: string; valueLabel: string }) {
  const ticks = sparkYTicks(series.map(Number), H);
  const first = times?.[0];
  const last = times?.at(-1);
  return (
    <figure className="cp-pnl" data-testid="cp-pnl-chart">
      <div className="cp-pnl__y" aria-label={valueLabel} role="list" style={{ height: H }}>
        {ticks.map((tk) => (
          <span key={`${tk.value}`} role="listitem" className="cp-pnl__tick rf-num" style={{ top: `${(tk.y / H) * 100}%` }}>{signedUsdt(String(tk.value))}</span>
        ))}
      </div>
      <div className="cp-pnl__plot">
        <Sparkline series={series} label={label} width={W} height={H} fluid />
        {first !== undefined && last !== undefined ? (
          <div className="cp-pnl__x rf-num">
            <span>{formatDateTime(first).slice(0, 10)}</span>
            <span>{formatDateTime(last).slice(0, 10)}</span>
          </div>
        ) : null}
      </div>
    </figure>
  );
}
