import type { Lang } from './languages.ts';

/**
 * One feature's translations: the same flat key set in every language.
 *
 * Invariant (checked by the compiler through {@link defineResources} AND at test time by
 * tests/unit/ui/i18n.test.ts for every file in resources/): every language has exactly the
 * keys of `en`, and no value is empty.
 */
export type FeatureResources<K extends string = string> = Readonly<Record<Lang, Readonly<Record<K, string>>>>;

/** `T` must carry every key of `K` and nothing else (extra keys are typed `never`). */
type SameKeys<K extends string, T> = Readonly<Record<K, string>> & { readonly [P in Exclude<keyof T, K>]: never };

/**
 * Identity at runtime; at compile time the key set of `en` becomes the contract for the other
 * four languages: a missing key or an extra key in zh/hk/jp/ko is a type error.
 *
 * ```ts
 * const en = { title: 'Market', empty: 'No data' };
 * export const market = defineResources({ en, zh: {...}, hk: {...}, jp: {...}, ko: {...} });
 * ```
 */
export function defineResources<K extends string, Z, H, J, O>(res: {
  en: Readonly<Record<K, string>>;
  zh: Z & SameKeys<NoInfer<K>, Z>;
  hk: H & SameKeys<NoInfer<K>, H>;
  jp: J & SameKeys<NoInfer<K>, J>;
  ko: O & SameKeys<NoInfer<K>, O>;
}): FeatureResources<K> {
  return res;
}
