/**
 * Where the entry's static closure comes from (issue 30): `npx tsx bench/entryAttribution.ts <dist>`
 * (a build with sourcemaps, as vite.config.ts makes them) reads the source map of every chunk the
 * entry imports statically (bundle.bench.ts's staticClosure) and attributes each chunk's bytes to
 * the package (node_modules/<name>) or source folder (src/<a>/<b>) of the original code they map
 * to. Raw bytes are exact (per mapping segment); brotli bytes are each chunk's brotli size shared
 * out in proportion to raw bytes (compression differs by code, so it is an estimate).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { entryOf, staticClosure } from './bundle.bench.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** The segments of one line of a v3 source map: [generated column, source index?]. */
function decodeLine(line: string, state: { source: number }): [number, number | null][] {
  const out: [number, number | null][] = [];
  let col = 0;
  for (const seg of line.split(',')) {
    if (!seg) continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const ch of seg) {
      const d = B64_INDEX.get(ch) ?? 0;
      value += (d & 31) << shift;
      if (d & 32) shift += 5;
      else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    col += fields[0] ?? 0;
    if (fields.length >= 4) {
      state.source += fields[1] ?? 0;
      out.push([col, state.source]);
    } else out.push([col, null]);
  }
  return out;
}

/** node_modules/<pkg> (scoped too), src/<a>/<b>, or the path as it is. */
export function groupOf(source: string): string {
  if (process.env.ATTRIBUTE_FILES) return source.replace(/^(\.\.\/)+/, '');
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = source.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? source);
  }
  const src = source.indexOf('src/');
  if (src >= 0) {
    const parts = source.slice(src).split('/');
    return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, -1).join('/') || source;
  }
  return source.replace(/^(\.\.\/)+/, '');
}

/** Raw bytes per source of one chunk (bytes no segment maps to count as '(unmapped)'). */
function attributeChunk(file: string): Map<string, number> {
  const code = readFileSync(file, 'utf8');
  const bytes = new Map<string, number>();
  const add = (k: string, n: number) => bytes.set(k, (bytes.get(k) ?? 0) + n);
  const mapFile = `${file}.map`;
  if (!existsSync(mapFile)) {
    add(basename(file).startsWith('_rf-i18n_') ? 'i18n texts (virtual:rf-i18n)' : '(no source map)', Buffer.byteLength(code));
    return bytes;
  }
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const mapLines = map.mappings.split(';');
  const state = { source: 0 };
  lines.forEach((text, i) => {
    const segs = decodeLine(mapLines[i] ?? '', state);
    let prevCol = 0;
    let prevSrc: string = '(unmapped)';
    for (const [col, src] of segs) {
      add(prevSrc, Buffer.byteLength(text.slice(prevCol, col)));
      prevCol = col;
      prevSrc = src === null ? '(unmapped)' : groupOf(map.sources[src] ?? '?');
    }
    add(prevSrc, Buffer.byteLength(text.slice(prevCol)) + 1);
  });
  return bytes;
}

export interface Attribution {
  group: string;
  raw: number;
  brotli: number;
}

export function attributeEntry(dir: string): { rows: Attribution[]; chunks: string[] } {
  const chunks = staticClosure(entryOf(dir));
  const total = new Map<string, Attribution>();
  for (const c of chunks) {
    const buf = readFileSync(c);
    const brTotal = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    for (const [group, raw] of attributeChunk(c)) {
      const row = total.get(group) ?? { group, raw: 0, brotli: 0 };
      row.raw += raw;
      row.brotli += (raw / buf.length) * brTotal;
      total.set(group, row);
    }
  }
  return { rows: [...total.values()].sort((a, b) => b.brotli - a.brotli), chunks: chunks.map((c) => basename(c)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? 'dist';
  const { rows, chunks } = attributeEntry(dir);
  const sum = (k: 'raw' | 'brotli') => rows.reduce((n, r) => n + r[k], 0);
  console.log(`${chunks.length} chunks: ${chunks.join(' ')}`);
  console.log(`| package or folder | raw bytes | brotli bytes (est.) |\n|---|---:|---:|`);
  for (const r of rows) if (r.brotli >= 200) console.log(`| ${r.group} | ${r.raw} | ${Math.round(r.brotli)} |`);
  const small = rows.filter((r) => r.brotli < 200);
  console.log(`| ${small.length} others | ${small.reduce((n, r) => n + r.raw, 0)} | ${Math.round(small.reduce((n, r) => n + r.brotli, 0))} |`);
  console.log(`| total | ${sum('raw')} | ${Math.round(sum('brotli'))} |`);
}
