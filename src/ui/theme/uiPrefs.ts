import type { PrefsStorage } from '../hooks/prefsStorage.ts';
import { createExternalStore, type ExternalStore } from '../hooks/externalStore.ts';
import { KLINE_STORAGE_KEY, parseKlineSetting, themedKlineColors, type KlineSetting } from './klineColors.ts';
import { THEMES, THEME_STORAGE_KEY, THEME_SURFACES, parseTheme, themeClass, type Theme } from './themes.ts';

/** Device class by width (SPEC §3, §9): mobile ≤ 767, tablet ≤ 1199, desktop otherwise. */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop';
export const MOBILE_MAX = 767;
export const TABLET_MAX = 1199;

/** Classifies a window width. */
export function deviceClassOf(width: number): DeviceClass {
  if (width <= MOBILE_MAX) return 'mobile';
  if (width <= TABLET_MAX) return 'tablet';
  return 'desktop';
}

/**
 * The UI half of the SPEC §3 "app store": theme, kline colors and window width. These are
 * presentation preferences, so they live outside the replayable core; each write persists to
 * Storage and is applied to the document immediately (root class, --up/--down variables).
 */
export interface UiPrefs {
  theme: ExternalStore<Theme>;
  kline: ExternalStore<KlineSetting>;
  width: ExternalStore<number>;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  setKline(setting: KlineSetting): void;
  /** Starts tracking `resize`; returns the unsubscribe function. */
  trackWindow(win: Window): () => void;
}

/** Applies theme class and buy/sell colors to the root element. */
function applyTheme(doc: Document, theme: Theme): void {
  const root = doc.documentElement;
  for (const t of THEMES) root.classList.remove(themeClass(t));
  root.classList.add(themeClass(theme));
  root.style.colorScheme = theme;
}

/** Buy/sell colours of the setting for the theme (fills exact, text readable: see theme.css). */
function applyKline(doc: Document, setting: KlineSetting, theme: Theme): void {
  const c = themedKlineColors(setting, THEME_SURFACES[theme]);
  const style = doc.documentElement.style;
  style.setProperty('--up', c.up);
  style.setProperty('--down', c.down);
  style.setProperty('--up-fill', c.upFill);
  style.setProperty('--down-fill', c.downFill);
  style.setProperty('--on-up', c.onUp);
  style.setProperty('--on-down', c.onDown);
}

/** Reads stored preferences, applies them to `doc` and returns the stores. */
export function createUiPrefs(storage: PrefsStorage, doc: Document, initialWidth: number): UiPrefs {
  const theme = createExternalStore<Theme>(parseTheme(storage.get(THEME_STORAGE_KEY)));
  const kline = createExternalStore<KlineSetting>(parseKlineSetting(storage.get(KLINE_STORAGE_KEY)));
  const width = createExternalStore<number>(initialWidth);
  applyTheme(doc, theme.get());
  applyKline(doc, kline.get(), theme.get());

  const setTheme = (next: Theme): void => {
    storage.set(THEME_STORAGE_KEY, next);
    applyTheme(doc, next);
    applyKline(doc, kline.get(), next);
    theme.set(next);
  };
  return {
    theme,
    kline,
    width,
    setTheme,
    toggleTheme: () => setTheme(theme.get() === 'dark' ? 'light' : 'dark'),
    setKline(setting) {
      storage.set(KLINE_STORAGE_KEY, JSON.stringify(setting));
      applyKline(doc, setting, theme.get());
      kline.set(setting);
    },
    trackWindow(win) {
      const onResize = (): void => width.set(win.innerWidth);
      win.addEventListener('resize', onResize);
      onResize();
      return () => win.removeEventListener('resize', onResize);
    },
  };
}
