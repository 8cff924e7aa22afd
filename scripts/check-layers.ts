/**
 * The import-direction and folder-cycle check (docs/ARCHITECTURE.md "Layers"), run by `npm test`
 * as its own row and by tests/unit/layers.test.ts on fixture trees.
 *
 *   protocol (src/protocol, src/format) ← ports (src/ports, src/api) ← domain (src/streams,
 *   src/machines, src/indicators) ← core (src/core) ← ui (src/ui, src/main.tsx)
 *
 * Rules, for every .ts/.tsx file under `src/` and `server/` of the root:
 * - a src file imports only files of its own layer or a lower one;
 * - every src file sits in a layer (a new top-level folder must be placed in LAYERS first);
 * - a server file imports from src only src/protocol and src/format;
 * - no cycle between folders: the graph whose nodes are the `src/<folder>`s (src/main.tsx counts
 *   as `src`) and whose edges are imports between different folders has no cycle. (The server's
 *   folders are not checked for cycles yet: server/features.ts and the feature folders import
 *   each other.)
 * Imports are read with the TypeScript pre-processor (static, `import type`, re-exports and
 * dynamic `import()` with a literal), so comments and strings never count.
 *
 * Usage: `npx tsx scripts/check-layers.ts [root]` (default: the current directory). Exit code 1
 * and one line per problem when a rule breaks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LAYERS: readonly { name: string; rank: number; paths: readonly string[] }[] = [
  { name: 'protocol', rank: 0, paths: ['src/protocol', 'src/format'] },
  { name: 'ports', rank: 1, paths: ['src/ports', 'src/api'] },
  { name: 'domain', rank: 2, paths: ['src/streams', 'src/machines', 'src/indicators'] },
  { name: 'core', rank: 3, paths: ['src/core'] },
  { name: 'ui', rank: 4, paths: ['src/ui', 'src/main.tsx'] },
];

/** What server code may import from src. */
export const SERVER_MAY_IMPORT: readonly string[] = ['src/protocol', 'src/format'];

const CODE = /\.(ts|tsx|mts|mjs|js)$/;

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (n === 'node_modules' || n.startsWith('.')) continue;
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (CODE.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
}

const posix = (p: string): string => p.split(path.sep).join('/');
const under = (rel: string, prefix: string): boolean => rel === prefix || rel.startsWith(`${prefix}/`);

/** The layer of a root-relative path, or null outside src. */
export function layerOf(rel: string): { name: string; rank: number } | null {
  for (const l of LAYERS) if (l.paths.some((p) => under(rel, p))) return l;
  return null;
}

/** The folder node of a root-relative path for the cycle check (`src/ui`, `src/core`, ...). */
function folderOf(rel: string): string | null {
  const parts = rel.split('/');
  if (parts[0] !== 'src') return null;
  return parts.length > 2 ? `src/${parts[1]}` : 'src'; // a file at the top, e.g. src/main.tsx
}

/** Relative import specifiers of a file (static, type-only, re-exports, literal dynamic imports). */
export function importsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'));
}

/** Every rule break under `root` (empty when clean), as human-readable lines. */
export function checkLayers(root: string): string[] {
  const files: string[] = [];
  walk(path.join(root, 'src'), files);
  walk(path.join(root, 'server'), files);
  const problems: string[] = [];
  const edges = new Map<string, Map<string, string>>(); // from folder → to folder → an example "a → b"
  for (const abs of files) {
    const rel = posix(path.relative(root, abs));
    const inSrc = under(rel, 'src');
    const from = inSrc ? layerOf(rel) : null;
    if (inSrc && !from) problems.push(`${rel}: not in any layer (add its folder to LAYERS in scripts/check-layers.ts)`);
    for (const spec of importsOf(readFileSync(abs, 'utf8'))) {
      const target = posix(path.relative(root, path.resolve(path.dirname(abs), spec)));
      if (inSrc && from) {
        const to = layerOf(target);
        if (!to && !under(target, 'src')) problems.push(`${rel}: imports ${spec}, outside src`);
        else if (to && to.rank > from.rank) problems.push(`${rel} (${from.name}) imports ${target} (${to.name}): imports go protocol ← ports ← domain ← core ← ui`);
      } else if (!inSrc && under(target, 'src') && !SERVER_MAY_IMPORT.some((p) => under(target, p))) {
        problems.push(`${rel} (server) imports ${target}: the server imports only ${SERVER_MAY_IMPORT.join(', ')} from src`);
      }
      const a = folderOf(rel);
      const b = folderOf(target);
      if (a && b && a !== b) {
        const m = edges.get(a) ?? new Map<string, string>();
        if (!m.has(b)) m.set(b, `${rel} → ${target}`);
        edges.set(a, m);
      }
    }
  }
  for (const cycle of findCycles(edges)) {
    const steps = cycle.map((f, i) => edges.get(f)!.get(cycle[(i + 1) % cycle.length]!)!);
    problems.push(`import cycle between folders ${[...cycle, cycle[0]].join(' → ')} (${steps.join('; ')})`);
  }
  return problems;
}

/** One cycle per strongly connected component with more than one folder (Tarjan). */
function findCycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const comp: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1) out.push(cycleIn(new Set(comp), edges));
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** A concrete cycle inside a strongly connected component (walk until a folder repeats). */
function cycleIn(comp: Set<string>, edges: Map<string, Map<string, string>>): string[] {
  const start = [...comp].sort()[0]!;
  const pathSeen: string[] = [];
  let v = start;
  while (!pathSeen.includes(v)) {
    pathSeen.push(v);
    v = [...(edges.get(v)?.keys() ?? [])].filter((w) => comp.has(w)).sort()[0]!;
  }
  return pathSeen.slice(pathSeen.indexOf(v));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  console.log(problems.length === 0 ? 'layers: imports follow protocol ← ports ← domain ← core ← ui; no folder cycles' : `layers: ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
