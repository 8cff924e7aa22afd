import type { i18n as I18n } from 'i18next';
import type { FeatureResources } from './defineResources.ts';
import { FEATURES } from './features.ts';
import { LANGUAGES, type Lang } from './languages.ts';
import { createI18nFrom, type LanguageTexts } from './runtime.ts';

export { FEATURES, type Namespace } from './features.ts';
export { applyHtmlLang, changeLanguage, createI18nFrom, storedLang, type LanguageChangeDeps, type LanguageTexts } from './runtime.ts';

/** One language's texts, regrouped from `{feature: {lang: texts}}` to `{feature: texts}`. */
export function textsOf(lang: Lang): LanguageTexts {
  const perNs: Record<string, Record<string, string>> = {};
  for (const [ns, res] of Object.entries(FEATURES) as [string, FeatureResources][]) perNs[ns] = { ...res[lang] };
  return perNs;
}

/**
 * Builds a fresh, synchronously initialised i18next instance with all five languages (one per
 * test or tool, never the global singleton, so tests cannot leak a language into each other).
 * The browser app loads only its own language instead (main.tsx, `virtual:rf-i18n/<lang>`).
 */
export function createI18n(lang: Lang): I18n {
  const resources = Object.fromEntries(LANGUAGES.map(({ code }) => [code, textsOf(code)])) as Record<Lang, LanguageTexts>;
  return createI18nFrom(lang, resources, Object.keys(FEATURES));
}
