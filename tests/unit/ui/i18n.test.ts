import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../src/ports/fakes.ts';
import { createI18n, FEATURES, storedLang } from '../../../src/ui/i18n/index.ts';
import { DEFAULT_LANG, htmlLangOf, LANGUAGES, parseLang } from '../../../src/ui/i18n/languages.ts';

const LANGS = LANGUAGES.map((l) => l.code);

type Texts = Record<string, unknown>;
type Feature = Record<string, Texts>;

function isFeature(v: unknown): v is Feature {
  return typeof v === 'object' && v !== null && LANGS.every((l) => l in v);
}

/** Every resource file on disk, found by glob so a new file is checked without editing this test. */
const files = import.meta.glob<Record<string, unknown>>('../../../src/ui/i18n/resources/*.ts', { eager: true });
const features: [string, Feature][] = Object.entries(files).flatMap(([file, mod]) =>
  Object.entries(mod)
    .filter(([, v]) => isFeature(v))
    .map(([name, v]) => [`${file.split('/').pop()}:${name}`, v as Feature] as [string, Feature]),
);

const placeholders = (s: string): string[] => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

describe('translation resources', () => {
  it('finds the resource files', () => {
    expect(features.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(files).length).toBe(features.length);
  });

  it.each(features)('%s: every language has exactly the keys of en, no empty values, same placeholders', (_name, feature) => {
    const en = feature.en ?? {};
    const keys = Object.keys(en).sort();
    expect(keys.length).toBeGreaterThan(0);
    for (const lang of LANGS) {
      const texts = feature[lang] ?? {};
      expect({ lang, keys: Object.keys(texts).sort() }).toEqual({ lang, keys });
      for (const k of keys) {
        const v = texts[k];
        expect(typeof v === 'string' && v.trim().length > 0, `${lang}.${k} is empty`).toBe(true);
        expect({ lang, k, vars: placeholders(String(v)) }).toEqual({ lang, k, vars: placeholders(String(en[k])) });
      }
    }
  });

  it('every resource file is registered as a namespace in src/ui/i18n/index.ts', () => {
    const registered = new Set<unknown>(Object.values(FEATURES));
    for (const [name, f] of features) expect(registered.has(f), `${name} is not in FEATURES`).toBe(true);
  });

  it('shell and common are really translated (no English left outside brand words)', () => {
    const same = new Set(['uid', 'api', 'appStore', 'googlePlay']);
    for (const ns of ['common', 'shell'] as const) {
      const f = FEATURES[ns] as unknown as Feature;
      for (const lang of ['zh', 'hk', 'jp', 'ko']) {
        for (const [k, v] of Object.entries(f[lang] ?? {})) {
          if (same.has(k)) continue;
          expect({ ns, lang, k, same: v === f.en?.[k] }).toEqual({ ns, lang, k, same: false });
        }
      }
    }
  });
});

describe('i18n instance', () => {
  it('resolves namespaced keys in the chosen language', () => {
    expect(createI18n('zh').t('shell:home')).toBe('首页');
    expect(createI18n('hk').t('common:copySuccess')).toBe('複製成功！');
    expect(createI18n('jp').t('shell:market')).toBe('マーケット');
    expect(createI18n('ko').t('common:comingSoon')).toBe('출시 예정');
    expect(createI18n('en').t('shell:appVersion', { version: '1.1.7' })).toBe('Version 1.1.7');
  });

  it('falls back to en and defaults the stored language to hk', () => {
    const i = createI18n('ko');
    expect(i.options.fallbackLng).toEqual(['en']);
    i.addResource('en', 'common', 'onlyInEnglish', 'fallback text');
    expect(i.t('common:onlyInEnglish')).toBe('fallback text');
    expect(storedLang(createMemoryStorage())).toBe('hk');
    expect(storedLang(createMemoryStorage({ lang: 'jp' }))).toBe('jp');
    expect(DEFAULT_LANG).toBe('hk');
  });

  it('property: any stored value parses to a supported language; html tags are the BCP 47 ones', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: null }), (s) => {
        expect(LANGS).toContain(parseLang(s));
      }),
    );
    expect(LANGS.map(htmlLangOf)).toEqual(['en', 'zh-CN', 'zh-HK', 'ja', 'ko']);
  });
});

describe('defineResources compile-time contract', () => {
  it('rejects a missing or an extra key (checked by tsc through @ts-expect-error)', async () => {
    const { defineResources } = await import('../../../src/ui/i18n/defineResources.ts');
    const en = { a: 'A', b: 'B' };
    const ok = { a: '1', b: '2' };
    expect(defineResources({ en, zh: ok, hk: ok, jp: ok, ko: ok }).zh).toEqual(ok);
    const missing = { a: '1' };
    // @ts-expect-error: 'b' is missing in zh
    defineResources({ en, zh: missing, hk: ok, jp: ok, ko: ok });
    const extra = { a: '1', b: '2', c: '3' };
    // @ts-expect-error: 'c' is not a key of en
    defineResources({ en, zh: ok, hk: ok, jp: ok, ko: extra });
  });
});
