import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '../../../format/number.ts';
import type { ContractKind, SymbolInfo } from '../../../protocol/market.ts';

const pct = (ratio: number) => formatPercent(ratio * 100, 4).replace('+', '');

/** Info and trading rules of the instrument (SPEC §3 contract trading rule). */
export function RulesPanel({ info, contract }: { info: SymbolInfo; contract: ContractKind }) {
  const { t } = useTranslation('trade');
  const rows: Array<[string, string]> = [
    [t('r_name'), `${info.name} (${info.base}/${info.quote})`],
    [t('r_contract'), t(contract === 'perp' ? 'perpetual' : 'standard')],
    [t('r_tickSize'), String(info.tickSize)],
    [t('r_qtyStep'), `${info.qtyStep} ${info.base}`],
    [t('r_minQty'), `${formatNumber(info.minOrderQuantity, info.qtyPrecision)} ${info.base}`],
    [t('r_maxQty'), `${formatNumber(info.maxOrderQuantity, info.qtyPrecision)} ${info.base}`],
    [t('r_leverage'), `${info.minLever}x – ${info.maxLever}x`],
    [t('r_openFee'), pct(info.openingFeeRatio)],
    [t('r_closeFee'), pct(info.closingFeeRatio)],
    [t('r_mmr'), pct(info.mMarginRatio)],
    contract === 'perp' ? [t('r_funding'), pct(info.fundingRateRatio)] : [t('r_overnight'), pct(info.overnightFeeRatio)],
  ];
  return (
    <section className="rf-rules" aria-label={t('rules')} data-testid="rules">
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className="rf-num">{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
