/**
 * Build-time compression (issue 30): after `vite build` writes dist/, every compressible file of
 * 1 KB or more gets a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9) sibling, kept only
 * when smaller than the file. The server (server/http/staticSite.ts, @fastify/static
 * `preCompressed`) picks one by Accept-Encoding, so no compression work happens per request.
 * A plugin of our own on node:zlib: a dozen lines, no third-party plugin to keep in step with Vite.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; source maps are left alone (only devtools fetch them). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|wasm|ico)$/;
/** Below this size the headers cost more than compression saves. */
export const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Writes `<file>.br` and `<file>.gz` next to each compressible file in `dir`; returns how many files were compressed. */
export async function precompressDir(dir: string): Promise<number> {
  const files = filesUnder(dir).filter((f) => COMPRESSIBLE.test(f));
  let n = 0;
  await Promise.all(
    files.map(async (f) => {
      const raw = readFileSync(f);
      if (raw.length < MIN_BYTES) return;
      const [br, gzip] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gz(raw, { level: 9 }),
      ]);
      if (br.length < raw.length) writeFileSync(`${f}.br`, br);
      if (gzip.length < raw.length) writeFileSync(`${f}.gz`, gzip);
      n += 1;
    }),
  );
  return n;
}

/** Vite plugin: precompresses the output folder once the bundle is written (build only). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'rf-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // closeBundle: after the public folder (favicon.svg) is copied in too.
    async closeBundle() {
      if (outDir && existsSync(join(outDir, 'index.html'))) await precompressDir(outDir);
    },
  };
}
