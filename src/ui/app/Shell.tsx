import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../components/toast.ts';
import { AppToaster } from '../components/AppToaster.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { useDevice } from '../hooks/usePrefs.ts';
import { useRouteFlags } from '../hooks/useRouteFlags.ts';
import { useCoreOutputs } from './AppCoreProvider.tsx';
import { BottomBar } from './BottomBar.tsx';
import { Footer } from './Footer.tsx';
import { TopBar } from './TopBar.tsx';

/**
 * The layout route around every screen: top bar, the screen, the desktop footer (showTabBar),
 * the mobile bottom bar (showAppNav !== false), and the toaster. It also performs the core's
 * outputs (toasts, navigations) and resets scroll on every navigation (SPEC §2).
 */
export function Shell() {
  const flags = useRouteFlags();
  const device = useDevice();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { t } = useTranslation('common');

  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
    // An error from the screen the user left is stale on the next one (a wrong code under
    // 'Login successful'): dismiss it. Success and info toasts finish their own short life.
    for (const shown of toast.getToasts()) if ('type' in shown && shown.type === 'error') toast.dismiss(shown.id);
  }, [pathname]);

  useCoreOutputs((o) => {
    if (o.type === 'navigate') {
      void navigate(o.to);
      return;
    }
    const msg = o.msg || t('error');
    if (o.level === 'success') toast.success(msg);
    else if (o.level === 'error') toast.error(msg);
    else toast.info(msg);
  });

  const desktop = device === 'desktop';
  const bottomBar = !desktop && flags.showAppNav !== false;
  return (
    <div className={`rf-app rf-app--${device} ${bottomBar ? 'has-bottombar' : ''}`} data-route={flags.name ?? ''}>
      <TopBar />
      <main className="rf-main">
        <Suspense
          fallback={
            <div className="rf-page-loading">
              <Spinner size={24} label={t('loading')} />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      {desktop && flags.showTabBar === true && <Footer />}
      {bottomBar && <BottomBar followScroll={flags.followScroll === true} />}
      <AppToaster />
    </div>
  );
}
