import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { MarketRow } from '../../components/market/marketList.ts';
import { AppDownload } from './AppDownload.tsx';
import { BannerCarousel } from './BannerCarousel.tsx';
import { Claims } from './Claims.tsx';
import { HotTickers } from './HotTickers.tsx';
import './home.css';
import '../../components/market/market.css';

export interface HomeViewProps {
  loggedIn: boolean;
  hot: readonly MarketRow[];
  history: (symbol: string) => readonly number[];
  onOpen: (path: string) => void;
}

/**
 * Home (/, SPEC §1, §2): banners, the risk-free claims, live hot pairs, the sign-up call to
 * action (it becomes "Trade now" for a logged-in user) and the app download section.
 */
export function HomeView({ loggedIn, hot, history, onOpen }: HomeViewProps) {
  const { t } = useTranslation('home');
  const cta = loggedIn ? (
    <Link className="home-btn home-btn--primary" to="/mFutures" data-testid="home-cta">
      {t('cta.tradeNow')}
    </Link>
  ) : (
    <Link className="home-btn home-btn--primary" to="/register" data-testid="home-cta">
      {t('cta.signUp')}
    </Link>
  );
  return (
    <div className="home-page" data-testid="home-page">
      <div className="home-container">
        <BannerCarousel />
        <section className="home-hero">
          <div className="home-hero__copy">
            <span className="home-pill">{t('claim.riskFree')}</span>
            <h1 className="home-hero__title">{t('hero.title')}</h1>
            <p className="home-hero__text">{t('hero.subtitle')}</p>
            {cta}
          </div>
          <Claims />
        </section>
        <HotTickers rows={hot} history={history} onOpen={onOpen} />
        <section className="home-section home-cta">
          <div>
            <h2 className="home-section__title">{t('cta.title')}</h2>
            <p className="home-cta__text">{t('cta.text')}</p>
          </div>
          {cta}
        </section>
        <AppDownload />
      </div>
    </div>
  );
}
