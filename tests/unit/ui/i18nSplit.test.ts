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

  it('only the five languages resolve', () => {
    const plugin = i18nSplit();
    expect(call(plugin.resolveId, {}, 'virtual:rf-i18n/fr')).toBeNull();
    expect(call(plugin.resolveId, {}, 'virtual:rf-i18n/hk')).toBe('\0rf-i18n:hk');
  });
});
