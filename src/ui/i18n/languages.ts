/**
 * The five product languages (SPEC §1, §9). The codes are the app's own (stored under the
 * storage key 'lang'); `htmlLang` is the BCP 47 tag written to `<html lang>`.
 */
export const LANGUAGES = [
  { code: 'en', label: 'English', htmlLang: 'en' },
  { code: 'zh', label: '简体中文', htmlLang: 'zh-CN' },
  { code: 'hk', label: '繁體中文', htmlLang: 'zh-HK' },
  { code: 'jp', label: '日本語', htmlLang: 'ja' },
  { code: 'ko', label: '한국어', htmlLang: 'ko' },
] as const;

export type Lang = (typeof LANGUAGES)[number]['code'];

/** Stored default (SPEC §3: lang default hk). */
export const DEFAULT_LANG: Lang = 'hk';
/** Translation fallback when a key is missing in the chosen language (SPEC §9). */
export const FALLBACK_LANG: Lang = 'en';
/** Storage key shared with the core (the Web-Lang header reads the same key). */
export const LANG_STORAGE_KEY = 'lang';

const codes: readonly string[] = LANGUAGES.map((l) => l.code);

/** Narrows any stored string to a known language, falling back to the default. */
export function parseLang(value: string | null | undefined): Lang {
  return value != null && codes.includes(value) ? (value as Lang) : DEFAULT_LANG;
}

/** The `<html lang>` tag for an app language code. */
export function htmlLangOf(lang: Lang): string {
  return LANGUAGES.find((l) => l.code === lang)?.htmlLang ?? 'en';
}
