import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { createAppCore } from './core/createAppCore.ts';
import { createBrowserPorts } from './ports/index.ts';
import { App } from './ui/app/App.tsx';
import { buildRoutes } from './ui/app/routes.tsx';
import type { ShellEnv } from './ui/hooks/useShellEnv.ts';
import { applyHtmlLang, createI18n, storedLang } from './ui/i18n/index.ts';
import { createUiPrefs } from './ui/theme/uiPrefs.ts';
import './ui/theme/theme.css';
import './ui/styles/base.css';
import './ui/styles/components.css';
import './ui/styles/shell.css';

/**
 * Composition root: the only place that builds real ports. Order matters:
 * NOTE: prefs and language are applied to <html> before the first render so there is no
 * flash of the wrong theme; the core starts (sockets connect) before React mounts.
 */
const ports = createBrowserPorts();
const lang = storedLang(ports.storage);
applyHtmlLang(document, lang);
const i18n = createI18n(lang);
const prefs = createUiPrefs(ports.storage, document, window.innerWidth);
const core = createAppCore(ports, { location: () => window.location.pathname + window.location.search });
const env: ShellEnv = {
  prefs,
  storage: ports.storage,
  language: { storage: ports.storage, doc: document, reload: () => window.location.reload() },
  clipboard: typeof navigator !== 'undefined' && navigator.clipboard ? navigator.clipboard : null,
};
const router = createBrowserRouter(buildRoutes());

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('index.html must contain #root');
createRoot(rootEl).render(
  <StrictMode>
    <App core={core} i18n={i18n} env={env} router={router} />
  </StrictMode>,
);
