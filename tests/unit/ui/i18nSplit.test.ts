import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { i18nSplit } from '../../../scripts/i18nSplit.ts';
import { FEATURES, textsOf } from '../../../src/ui/i18n/index.ts';
import { LANGUAGES } from '../../../src/ui/i18n/languages.ts';

/** Issue 30: the build emits one module per language holding exactly that language's texts. */

const root = fileURLToPath(new URL('../../..', import.meta.url));

type Hook = (...args: unknown[]) => unknown;
const call = (hook: unknown, ctx: unknown, ...args: unknown[]): unknown => (hook as Hook).apply(ctx, args);

describe('i18n split (scripts/i18nSplit.ts)', () => {
  it('each language module of a build holds exactly that language, for every namespace', async () => {
    const plugin = i18nSplit();
    call(plugin.configResolved, {}, { root, command: 'build' });
    const ctx = { addWatchFile: () => undefined };
    for (const { code } of LANGUAGES) {
      const id = call(plugin.resolveId, ctx, `virtual:rf-i18n/${code}`) as string;
      const src = (await call(plugin.load, ctx, id)) as string;
      const json = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(src)?.[1];
      expect(json, code).toBeDefined();
      expect(JSON.parse(JSON.parse(json as string) as string), code).toEqual(textsOf(code));
      expect(src).toContain(`export const namespaces = ${JSON.stringify(Object.keys(FEATURES))}`);
    }
  });

  it("index.html preloads the chunk of the language it is given (the default), and nothing in dev or without it", () => {
    const bundle = {
      'assets/index-a.js': { type: 'chunk', fileName: 'assets/index-a.js', facadeModuleId: '/src/main.tsx' },
      'assets/_rf-i18n_en-b.js': { type: 'chunk', fileName: 'assets/_rf-i18n_en-b.js', facadeModuleId: '\0rf-i18n:en' },
      'assets/_rf-i18n_hk-c.js': { type: 'chunk', fileName: 'assets/_rf-i18n_hk-c.js', facadeModuleId: '\0rf-i18n:hk' },
    };
    const hook = (p: ReturnType<typeof i18nSplit>) => (p.transformIndexHtml as { handler: Hook }).handler;
    expect(call(hook(i18nSplit({ preload: 'hk' })), {}, '<html></html>', { bundle })).toEqual([
      { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: '/assets/_rf-i18n_hk-c.js' }, injectTo: 'head' },
    ]);
    expect(call(hook(i18nSplit({ preload: 'en' })), {}, '<html></html>', { bundle })).toEqual([
      { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: '/assets/_rf-i18n_en-b.js' }, injectTo: 'head' },
    ]);
    expect(call(hook(i18nSplit()), {}, '<html></html>', { bundle })).toBeUndefined();
    expect(call(hook(i18nSplit({ preload: 'hk' })), {}, '<html></html>', {})).toBeUndefined();
  });

  it('only the five languages resolve', () => {
    const plugin = i18nSplit();
    expect(call(plugin.resolveId, {}, 'virtual:rf-i18n/fr')).toBeNull();
    expect(call(plugin.resolveId, {}, 'virtual:rf-i18n/hk')).toBe('\0rf-i18n:hk');
  });
});
