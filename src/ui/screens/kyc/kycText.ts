import type { TFunction } from 'i18next';
import { COUNTRY_CODES, kycMsgKey } from '../../../protocol/kyc.ts';
import { htmlLangOf, type Lang } from '../../i18n/languages.ts';

/**
 * The translated text of a KYC message (client rule or server answer). Known KYC_MSG texts map to
 * `kyc:msg_<key>`; anything else (a network message, another server text) is shown as is.
 */
export function kycText(t: TFunction, msg: string): string {
  const key = kycMsgKey(msg);
  return key ? t(`kyc:msg_${key}`) : msg;
}

export interface CountryOption {
  code: string;
  name: string;
}

const cache = new Map<string, CountryOption[]>();

/**
 * ISO 3166 regions localised with `Intl.DisplayNames(type: 'region')` in the app language and
 * sorted by that language's collation. A code the runtime cannot name falls back to the code.
 */
export function countryOptions(lang: Lang): CountryOption[] {
  const tag = htmlLangOf(lang);
  const hit = cache.get(tag);
  if (hit) return hit;
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([tag, 'en'], { type: 'region' });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(tag);
  const list = COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  cache.set(tag, list);
  return list;
}

/** The localised name of one region code ('' → ''). */
export function countryName(lang: Lang, code: string): string {
  return countryOptions(lang).find((c) => c.code === code)?.name ?? code;
}
