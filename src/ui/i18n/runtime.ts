import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { PrefsStorage } from '../hooks/prefsStorage.ts';
import { FALLBACK_LANG, LANG_STORAGE_KEY, LANGUAGES, htmlLangOf, parseLang, type Lang } from './languages.ts';

/**
 * The light half of the i18n module: what the app needs at start without the texts of every
 * language (src/ui/i18n/index.ts keeps FEATURES and `createI18n` with all five, for tests and tools).
 * The browser loads only its language's texts (`virtual:rf-i18n/<lang>`, scripts/i18nSplit.ts);
 * a language change reloads the page, so the others are never needed in the same page.
 */

/** One language's texts by namespace: `{ common: { key: text }, shell: {...}, ... }`. */
export type LanguageTexts = Record<string, Readonly<Record<string, string>>>;

/**
 * Builds a fresh, synchronously initialised i18next instance from texts already loaded
 * (one per app or per test, never the global singleton, so tests cannot leak a language).
 */
export function createI18nFrom(lang: Lang, resources: Partial<Record<Lang, LanguageTexts>>, namespaces: readonly string[]): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: FALLBACK_LANG,
    supportedLngs: LANGUAGES.map((l) => l.code),
    ns: [...namespaces],
    defaultNS: 'common',
    resources: resources as Record<string, LanguageTexts>,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** Reads the stored language (default hk, SPEC §3). */
export function storedLang(storage: PrefsStorage): Lang {
  return parseLang(storage.get(LANG_STORAGE_KEY));
}

/** Writes `<html lang>` for the app language (en, zh-CN, zh-HK, ja, ko). */
export function applyHtmlLang(doc: Document, lang: Lang): void {
  doc.documentElement.lang = htmlLangOf(lang);
}

/** What a language change needs from the outside world; injected so tests can observe it. */
export interface LanguageChangeDeps {
  storage: PrefsStorage;
  doc: Document;
  /** Reloads the page (window.location.reload in the browser). */
  reload: () => void;
}

/**
 * SPEC §4: changing the language stores it, sets the root language and reloads the page
 * (the reload lets the core re-send Web-Lang and the screens refetch translated data).
 */
export function changeLanguage(lang: Lang, deps: LanguageChangeDeps): void {
  deps.storage.set(LANG_STORAGE_KEY, lang);
  applyHtmlLang(deps.doc, lang);
  deps.reload();
}
