/**
 * One language per page (issue 30): `import('virtual:rf-i18n/hk')` gives that language's texts
 * by namespace, so the browser downloads and parses one language instead of all five (a
 * language change reloads the page, src/ui/i18n/runtime.ts). The resource files stay as they are
 * (every language side by side, checked by defineResources).
 *
 * Build: the plugin evaluates src/ui/i18n/features.ts in Node (tsx) and emits each language as
 * `JSON.parse('…')`, which engines parse faster than the same object literal. Dev server and
 * vitest: the module picks the language from the live sources, so edits show at once.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:rf-i18n/';
const RESOLVED = '\0rf-i18n:';
const LANGS = ['en', 'zh', 'hk', 'jp', 'ko'];

type Features = Record<string, Record<string, Record<string, string>>>;

/**
 * `preload`: the language a first visit gets (the app's DEFAULT_LANG): its chunk is named in
 * index.html as `<link rel="modulepreload">`, so a new visitor downloads the texts beside the entry's
 * chunks instead of after they ran (issue 30). Another language costs one more round trip, as before.
 */
export function i18nSplit(options: { preload?: string } = {}): Plugin {
  let root = process.cwd();
  let build = false;
  let features: Promise<Features> | null = null;
  const featuresFile = (): string => resolve(root, 'src/ui/i18n/features.ts');
  const loadFeatures = async (): Promise<Features> => {
    const { tsImport } = await import('tsx/esm/api');
    const file = pathToFileURL(featuresFile()).href;
    const mod = (await tsImport(`${file}?t=${Date.now()}`, file)) as { FEATURES: Features };
    return mod.FEATURES;
  };
  return {
    name: 'rf-i18n-split',
    configResolved(config) {
      root = config.root;
      build = config.command === 'build';
    },
    buildStart() {
      features = null;
    },
    resolveId(id) {
      if (id.startsWith(PREFIX) && LANGS.includes(id.slice(PREFIX.length))) return RESOLVED + id.slice(PREFIX.length);
      return null;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const lang = options.preload;
        if (!lang || !ctx.bundle) return undefined;
        const chunk = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === RESOLVED + lang);
        if (!chunk) return undefined;
        return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' }];
      },
    },
    async load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const lang = id.slice(RESOLVED.length);
      if (!build) {
        const index = JSON.stringify(resolve(root, 'src/ui/i18n/index.ts'));
        return `import { FEATURES, textsOf } from ${index};\nexport const namespaces = Object.keys(FEATURES);\nexport default textsOf(${JSON.stringify(lang)});\n`;
      }
      const dir = resolve(root, 'src/ui/i18n/resources');
      for (const f of readdirSync(dir)) this.addWatchFile(join(dir, f));
      features ??= loadFeatures();
      const all = await features;
      const texts = Object.fromEntries(Object.entries(all).map(([ns, res]) => [ns, res[lang] ?? {}]));
      return `export const namespaces = ${JSON.stringify(Object.keys(all))};\nexport default JSON.parse(${JSON.stringify(JSON.stringify(texts))});\n`;
    },
  };
}
