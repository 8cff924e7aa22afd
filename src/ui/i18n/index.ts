import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Storage } from '../../ports/types.ts';
import type { FeatureResources } from './defineResources.ts';
import { FALLBACK_LANG, LANG_STORAGE_KEY, LANGUAGES, htmlLangOf, parseLang, type Lang } from './languages.ts';
import { assets } from './resources/assets.ts';
import { auth } from './resources/auth.ts';
import { common } from './resources/common.ts';
import { compensation } from './resources/compensation.ts';
import { coupon } from './resources/coupon.ts';
import { home } from './resources/home.ts';
import { kyc } from './resources/kyc.ts';
import { market } from './resources/market.ts';
import { settings } from './resources/settings.ts';
import { shell } from './resources/shell.ts';
import { trade } from './resources/trade.ts';
import { replay } from './resources/replay.ts';
import { wallet } from './resources/wallet.ts';
import { convert } from './resources/convert.ts';
import { orderForm } from './resources/orderForm.ts';
import { positions } from './resources/positions.ts';
import { referral } from './resources/referral.ts';
import { help } from './resources/help.ts';
import { dashboard } from './resources/dashboard.ts';
import { copy } from './resources/copy.ts';

/**
 * Every feature's translations, one line per feature; the key becomes the i18next namespace
 * (`useTranslation('shell')`, `t('common:copySuccess')`). To add a feature: create
 * resources/<feature>.ts (see docs/UI.md) and add ONE line here.
 */
export const FEATURES = {
  common,
  shell,
  auth,
  home,
  market,
  settings,
  assets,
  trade,
  replay,
  compensation,
  kyc,
  coupon,
  wallet,
  convert,
  orderForm,
  positions,
  referral,
  help,
  dashboard,
  copy,
} satisfies Record<string, FeatureResources>;

export type Namespace = keyof typeof FEATURES;

/** Regroups `{feature: {lang: texts}}` into i18next's `{lang: {feature: texts}}`. */
function toI18nextResources(): Record<Lang, Record<string, Record<string, string>>> {
  const out = {} as Record<Lang, Record<string, Record<string, string>>>;
  for (const { code } of LANGUAGES) {
    const perNs: Record<string, Record<string, string>> = {};
    for (const [ns, res] of Object.entries(FEATURES) as [string, FeatureResources][]) perNs[ns] = { ...res[code] };
    out[code] = perNs;
  }
  return out;
}

/**
 * Builds a fresh, synchronously initialised i18next instance (one per app or per test, never
 * the global singleton, so tests cannot leak a language into each other).
 */
export function createI18n(lang: Lang): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: FALLBACK_LANG,
    supportedLngs: LANGUAGES.map((l) => l.code),
    ns: Object.keys(FEATURES),
    defaultNS: 'common',
    resources: toI18nextResources(),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** Reads the stored language (default hk, SPEC §3). */
export function storedLang(storage: Storage): Lang {
  return parseLang(storage.get(LANG_STORAGE_KEY));
}

/** Writes `<html lang>` for the app language (en, zh-CN, zh-HK, ja, ko). */
export function applyHtmlLang(doc: Document, lang: Lang): void {
  doc.documentElement.lang = htmlLangOf(lang);
}

/** What a language change needs from the outside world; injected so tests can observe it. */
export interface LanguageChangeDeps {
  storage: Storage;
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
