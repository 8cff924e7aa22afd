import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { NotYetAvailable } from '../components/NotYetAvailable.tsx';
import { useAppCore, useSession } from './AppCoreProvider.tsx';
import { ROUTE_TABLE, tradePairFrom, type RouteDef, type RouteHandle } from './routeTable.ts';
import { lazyScreen, preloadScreen, SCREENS, type ScreenLoader } from './screens.ts';
import { Shell } from './Shell.tsx';

/** /mFutures and /stdFuture: on to the stored pair (default BTCUSDT). */
function PairRedirect({ base }: { base: string }) {
  const { device } = useAppCore();
  return <Navigate replace to={`${base}/${tradePairFrom(device.tradePair())}`} />;
}

/** SPEC §4/§6: a logged-in user going to Login or Register is sent home. */
function GuestOnly({ children }: { children: ReactNode }) {
  const { loggedIn } = useSession();
  return loggedIn ? <Navigate replace to="/" /> : children;
}

/** Last-resort error boundary for a screen that threw while rendering or loading. */
function RouteError() {
  const { t } = useTranslation('common');
  return (
    <section className="rf-placeholder" role="alert">
      <h1>{t('error')}</h1>
      <Link className="rf-btn rf-btn--primary rf-btn--md" to="/">
        {t('backHome')}
      </Link>
    </section>
  );
}

function elementFor(def: RouteDef, registry: Record<string, ScreenLoader | null>): ReactNode {
  if ('redirect' in def) return <Navigate replace to={def.redirect} />;
  if ('pairRedirect' in def) return <PairRedirect base={def.pairRedirect} />;
  const Screen = lazyScreen(def.screen, registry);
  const body = Screen ? <Screen /> : <NotYetAvailable />;
  return def.guestOnly ? <GuestOnly>{body}</GuestOnly> : body;
}

/**
 * The react-router route objects: one layout route (the shell) whose children are the rows of
 * {@link ROUTE_TABLE}, each with its flags and name as `handle`. `registry` is injectable so
 * tests can render the shell without loading real screens.
 */
export function buildRoutes(
  table: readonly RouteDef[] = ROUTE_TABLE,
  registry: Record<string, ScreenLoader | null> = SCREENS,
): RouteObject[] {
  return [
    {
      element: <Shell />,
      errorElement: <RouteError />,
      children: table.map((def) => {
        const handle: RouteHandle = {
          name: def.name,
          showTabBar: def.showTabBar,
          showAppNav: def.showAppNav,
          followScroll: def.followScroll,
        };
        return { path: def.path, element: elementFor(def, registry), handle, errorElement: <RouteError /> };
      }),
    },
  ];
}

/**
 * Starts loading the screen of the route at `pathname` (main.tsx, before the language's texts are
 * here: the route's chunk and its imports load beside them, not after the first render).
 */
export function preloadRoute(routes: RouteObject[], pathname: string): void {
  const leaf = matchRoutes(routes, pathname)?.at(-1);
  const name = (leaf?.route.handle as RouteHandle | undefined)?.name;
  const def = ROUTE_TABLE.find((d) => d.name === name);
  if (def && 'screen' in def) void preloadScreen(def.screen)?.catch(() => undefined);
}
