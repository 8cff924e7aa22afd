import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { LazyDrawer as Drawer } from '../components/LazyDrawer.tsx';
import { useScrollHidden } from '../hooks/useScrollHidden.ts';
import { activeBottomItem, BOTTOM_ITEMS, type BottomItem } from './menus.ts';

const ICONS: Record<BottomItem['key'], ReactNode> = {
  home: <path d="M3 11 12 4l9 7v9h-6v-6H9v6H3z" />,
  market: <path d="M4 19V9h3v10zm6.5 0V5h3v14zM17 19v-7h3v7z" />,
  trade: <path d="M4 8h13l-3-3m6 11H7l3 3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />,
  convert: <path d="M12 3a9 9 0 1 0 9 9h-3a6 6 0 1 1-1.8-4.3L13 11h8V3l-2.6 2.6A9 9 0 0 0 12 3z" />,
  assets: <path d="M3 7h18v12H3zm0 0 2-3h14l2 3m-5 6h3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />,
};

/**
 * Mobile/tablet bottom bar (SPEC §2): Home, Market, Trade (popup), Convert, Assets. The active
 * item follows the path prefix; with `followScroll` it hides while the user scrolls down.
 */
export function BottomBar({ followScroll }: { followScroll: boolean }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const active = activeBottomItem(pathname);
  const hidden = useScrollHidden(followScroll);
  const [tradeOpen, setTradeOpen] = useState(false);
  return (
    <>
      <nav className={`rf-bottombar ${hidden ? 'is-hidden' : ''}`} data-testid="bottom-bar" aria-label={t('menu')}>
        {BOTTOM_ITEMS.map((item) => {
          const content = (
            <>
              <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                {ICONS[item.key]}
              </svg>
              <span>{t(item.label)}</span>
            </>
          );
          const cls = `rf-bottombar__item ${active === item.key ? 'is-active' : ''}`;
          return item.path === null ? (
            <button key={item.key} type="button" className={cls} data-key={item.key} aria-current={active === item.key ? 'page' : undefined} onClick={() => setTradeOpen(true)}>
              {content}
            </button>
          ) : (
            <Link key={item.key} to={item.path} className={cls} data-key={item.key} aria-current={active === item.key ? 'page' : undefined}>
              {content}
            </Link>
          );
        })}
      </nav>
      <Drawer open={tradeOpen} onClose={() => setTradeOpen(false)} side="bottom" label={t('trade')} title={t('trade')}>
        <Link className="rf-drawer-menu__item" to="/stdFuture" onClick={() => setTradeOpen(false)}>
          {t('stdFutures')}
        </Link>
        <Link className="rf-drawer-menu__item" to="/mFutures" onClick={() => setTradeOpen(false)}>
          {t('mFutures')}
        </Link>
      </Drawer>
    </>
  );
}
