import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { createRecordedCore, registerStoredLoads } from './core/replay/record.ts';
import { APP_VERSION } from './core/appVersion.ts';
import { browserReplayHost, createBrowserPorts, onPageLifecycle } from './ports/index.ts';
import { App } from './ui/app/App.tsx';
import { buildRoutes, preloadRoute } from './ui/app/routes.tsx';
import type { ShellEnv } from './ui/hooks/useShellEnv.ts';
import { loadI18n } from './ui/i18n/loadLanguage.ts';
import { applyHtmlLang, storedLang } from './ui/i18n/runtime.ts';
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
// Only this language's texts are downloaded (the others come with a language change, which reloads).
const i18nReady = loadI18n(lang);
const prefs = createUiPrefs(ports.storage, document, window.innerWidth);
// Recording is on by default (bounded ring, docs/REPLAY.md); `?replay=<url>` replays a log instead
// (the replay code is loaded only then).
const replayUrl = new URLSearchParams(window.location.search).get('replay');
const replay = replayUrl ? await import('./core/replay/browserReplay.ts').then((m) => m.loadBrowserReplay(replayUrl, browserReplayHost)) : null;
const recorded = replay
  ? null
  : createRecordedCore(ports, {
      location: () => window.location.pathname + window.location.search,
      env: { appVersion: APP_VERSION, language: lang, theme: prefs.theme.get(), viewport: { width: window.innerWidth, height: window.innerHeight }, userAgent: navigator.userAgent, path: window.location.pathname },
    });
const core = replay ? replay.core : (recorded as NonNullable<typeof recorded>).core;
const env: ShellEnv = {
  prefs,
  language: { storage: ports.storage, doc: document, reload: () => window.location.reload() },
  clipboard: typeof navigator !== 'undefined' && navigator.clipboard ? navigator.clipboard : null,
};
const routes = buildRoutes();
const router = createBrowserRouter(routes);
// The first route's screen loads now, beside the language's texts (not after the first render).
preloadRoute(routes, router.state.location.pathname);
if (recorded) {
  recorded.recordRoute(router.state.location.pathname + router.state.location.search);
  router.subscribe((st) => recorded.recordRoute(st.location.pathname + st.location.search));
  // A tab back from the background (or the network back) restarts stale sockets: src/core/pageWake.ts.
  onPageLifecycle(document, window, core.wake);
}

// The core runs (and records) already; the screens mount once the language's texts are here.
const i18n = await i18nReady;
if (replay) {
  // Exposed only now, right before the mount, as before the language was loaded on its own: a
  // test stepping the replay must find the screens mounting, not a page still waiting for texts.
  (window as unknown as { __rftReplay?: typeof replay }).__rftReplay = replay;
  replay.setNavigate((path) => void router.navigate(path));
}
const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('index.html must contain #root');
const root = createRoot(rootEl);
// `key`: a replayed reload (a later page load of the log) remounts the app on that load's fresh core.
const mount = (c: typeof core, load: number) =>
  root.render(
    <StrictMode>
      <App key={load} core={c} i18n={i18n} env={env} router={router} />
    </StrictMode>,
  );
mount(core, 0);
replay?.onCore(mount);
if (recorded) {
  // The recording outlives a reload (IndexedDB, src/ports/logStore.ts): loaded after the first paint;
  // the ring holds everything recorded until then, and the store takes it all first.
  const log = recorded.log;
  // (after the next frame, or 1 s in a background tab, where frames wait)
  const painted = new Promise<void>((resolve) => {
    requestAnimationFrame(() => window.setTimeout(resolve, 0));
    window.setTimeout(resolve, 1000);
  });
  const stored = painted.then(() => import('./ports/logStore.ts').then((m) => m.startBrowserRecordingStore(log)));
  registerStoredLoads(log, async () => (await stored)?.earlierLoads() ?? []);
  stored.catch(() => undefined);
}
