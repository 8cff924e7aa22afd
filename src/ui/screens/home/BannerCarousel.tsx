import { useEffect, useReducer, useRef } from 'react';
import type { PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { AUTOPLAY_MS, initialCarousel, reduceCarousel } from './carousel.ts';

/** The six home banners: art in public/banners (no text baked in), headline keys in the `home` namespace. */
export const BANNERS: readonly { n: 1 | 2 | 3 | 4 | 5 | 6; to: string }[] = [
  { n: 1, to: '/mFutures' },
  { n: 2, to: '/convert' },
  { n: 3, to: '/help-center' },
  { n: 4, to: '/my/rebate' },
  { n: 5, to: '/my/coupon' },
  { n: 6, to: '/#download' },
];

/**
 * The home carousel (SPEC §2 "six banners"): autoplay every {@link AUTOPLAY_MS}, paused while
 * hovered, focused or dragged; dots and arrows; swipe on touch screens. State transitions
 * are the pure `reduceCarousel`; this component only owns the pointer listeners and reads the core's
 * cosmetic timer (src/core/timers.ts).
 * Slides that are not shown are `aria-hidden` and `inert`, so keyboard users land on the
 * visible one.
 */
export function BannerCarousel() {
  const { t } = useTranslation('home');
  const [state, dispatch] = useReducer(reduceCarousel, BANNERS.length, initialCarousel);
  const dragX = useRef<number | null>(null);

  const timers = useAppCore().timers;
  useEffect(() => {
    if (state.paused) return;
    const sub = timers.every$(AUTOPLAY_MS).subscribe(() => {
      if (document.visibilityState !== 'hidden') dispatch({ type: 'tick' });
    });
    return () => sub.unsubscribe();
  }, [timers, state.paused, state.index]);

  const onPointerDown = (e: PointerEvent) => {
    dragX.current = e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    if (dragX.current === null) return;
    dispatch({ type: 'swipe', dx: e.clientX - dragX.current });
    dragX.current = null;
  };

  return (
    <section
      className="home-carousel"
      aria-roledescription="carousel"
      aria-label={t('banner.region')}
      data-testid="home-carousel"
      onMouseEnter={() => dispatch({ type: 'pause' })}
      onMouseLeave={() => dispatch({ type: 'resume' })}
      onFocus={() => dispatch({ type: 'pause' })}
      onBlur={() => dispatch({ type: 'resume' })}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (dragX.current = null)}
    >
      <div className="home-carousel__track" style={{ transform: `translateX(-${state.index * 100}%)` }}>
        {BANNERS.map((b, i) => {
          const shown = i === state.index;
          return (
            <div
              key={b.n}
              className="home-banner"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} / ${BANNERS.length}`}
              aria-hidden={!shown}
              inert={!shown}
              data-testid="home-banner"
              data-active={shown}
            >
              <img className="home-banner__art" src={`/banners/banner-${b.n}.svg`} alt="" draggable={false} />
              <div className="home-banner__copy">
                <h2 className="home-banner__title">{t(`banner.${b.n}.title`)}</h2>
                <p className="home-banner__text">{t(`banner.${b.n}.text`)}</p>
                <Link className="home-btn home-btn--ghost" to={b.to}>
                  {t('banner.cta')}
                </Link>
              </div>
            </div>
          );
        })}
      </div>
      <button type="button" className="home-carousel__arrow home-carousel__arrow--prev" aria-label={t('banner.prev')} onClick={() => dispatch({ type: 'prev' })}>
        ‹
      </button>
      <button type="button" className="home-carousel__arrow home-carousel__arrow--next" aria-label={t('banner.next')} onClick={() => dispatch({ type: 'next' })}>
        ›
      </button>
      <div className="home-carousel__dots">
        {BANNERS.map((b, i) => (
          <button
            key={b.n}
            type="button"
            className={`home-carousel__dot${i === state.index ? ' home-carousel__dot--active' : ''}`}
            aria-label={t('banner.goTo', { n: i + 1 })}
            aria-current={i === state.index}
            onClick={() => dispatch({ type: 'goTo', index: i })}
          />
        ))}
      </div>
    </section>
  );
}
