import { useTranslation } from 'react-i18next';

const CLAIMS = ['fund', 'years', 'traders', 'fee'] as const;

/** The SPEC §1 marketing claims: 100M USD risk fund, 20 years, 100K+ traders, 0-fee no-slippage exchange. */
export function Claims() {
  const { t } = useTranslation('home');
  return (
    <section className="home-claims" data-testid="home-claims" aria-label={t('claim.riskFree')}>
      {CLAIMS.map((c) => (
        <div key={c} className="home-claim">
          <b className="home-claim__value">{t(`claim.${c}.value`)}</b>
          <span className="home-claim__label">{t(`claim.${c}.label`)}</span>
        </div>
      ))}
    </section>
  );
}
