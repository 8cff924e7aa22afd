import type { i18n as I18n } from 'i18next';
import type { Lang } from './languages.ts';
import { createI18nFrom, type LanguageTexts } from './runtime.ts';

interface LanguageModule {
  namespaces: readonly string[];
  default: LanguageTexts;
}

/** One chunk per language (scripts/i18nSplit.ts); spelled out so the bundler sees every import. */
const LOADERS: Record<Lang, () => Promise<LanguageModule>> = {
  en: () => import('virtual:rf-i18n/en'),
  zh: () => import('virtual:rf-i18n/zh'),
  hk: () => import('virtual:rf-i18n/hk'),
  jp: () => import('virtual:rf-i18n/jp'),
  ko: () => import('virtual:rf-i18n/ko'),
};

/** Downloads the texts of `lang` only and builds the app's i18next instance on them. */
export async function loadI18n(lang: Lang): Promise<I18n> {
  const mod = await LOADERS[lang]();
  return createI18nFrom(lang, { [lang]: mod.default }, mod.namespaces);
}
