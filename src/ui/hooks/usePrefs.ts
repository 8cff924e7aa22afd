import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/runtime.ts';
import { parseLang, type Lang } from '../i18n/languages.ts';
import type { KlineSetting } from '../theme/klineColors.ts';
import type { Theme } from '../theme/themes.ts';
import { deviceClassOf, type DeviceClass } from '../theme/uiPrefs.ts';
import { useExternalStore } from './externalStore.ts';
import { useShellEnv } from './useShellEnv.ts';

/** Current theme and its setters (persisted to 'theme', applied as the root class). */
export function useTheme(): { theme: Theme; toggle: () => void; set: (t: Theme) => void } {
  const { prefs } = useShellEnv();
  const theme = useExternalStore(prefs.theme);
  return { theme, toggle: prefs.toggleTheme, set: prefs.setTheme };
}

/** Kline color setting (persisted to 'kline_style'; drives --up/--down page-wide). */
export function useKlineSetting(): [KlineSetting, (s: KlineSetting) => void] {
  const { prefs } = useShellEnv();
  return [useExternalStore(prefs.kline), prefs.setKline];
}

/** Tracked window width in CSS pixels. */
export function useWindowWidth(): number {
  return useExternalStore(useShellEnv().prefs.width);
}

/** mobile ≤ 767 < tablet ≤ 1199 < desktop. */
export function useDevice(): DeviceClass {
  return deviceClassOf(useWindowWidth());
}

/** The active language and a changer that stores it, sets `<html lang>` and reloads. */
export function useLanguage(): { lang: Lang; change: (lang: Lang) => void } {
  const { i18n } = useTranslation();
  const { language } = useShellEnv();
  const change = useCallback((lang: Lang) => changeLanguage(lang, language), [language]);
  return { lang: parseLang(i18n.language), change };
}
