import type { i18n as I18n } from 'i18next';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import type { ShellEnv } from '../hooks/useShellEnv.ts';
import { AppCoreProvider } from './AppCoreProvider.tsx';
import { ShellEnvProvider } from './ShellEnvProvider.tsx';
import type { AppCore } from '../../core/createAppCore.ts';

type Router = ReturnType<typeof createBrowserRouter>;

/** Everything the app needs, built by main.tsx (or a test) before rendering. */
export interface AppDeps {
  core: AppCore;
  i18n: I18n;
  env: ShellEnv;
  router: Router;
}

/** Providers in dependency order; kept separate so tests reuse them with a memory router. */
export function AppProviders({ core, i18n, env, children }: Omit<AppDeps, 'router'> & { children: ReactNode }) {
  useEffect(() => env.prefs.trackWindow(window), [env]);
  return (
    <AppCoreProvider core={core}>
      <I18nextProvider i18n={i18n}>
        <ShellEnvProvider env={env}>{children}</ShellEnvProvider>
      </I18nextProvider>
    </AppCoreProvider>
  );
}

/** The whole application: providers around the router (routes from routes.tsx). */
export function App({ core, i18n, env, router }: AppDeps) {
  return (
    <AppProviders core={core} i18n={i18n} env={env}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
