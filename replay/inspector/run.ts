import { basename } from 'node:path';
import { startInspector } from './server.ts';
import { readLogText } from '../headless.ts';

/** `npm run replay -- <file> --inspect [--diff <other>] [--port n] [--every n]`: serves until Ctrl-C. */
export async function runInspector(file: string, opts: { diff?: string; dist?: string; port?: number; every?: number }): Promise<number> {
  const read = (f: string) => ({ name: basename(f), text: readLogText(f) });
  console.log(`indexing ${file}${opts.diff ? ` and ${opts.diff}` : ''}…`);
  const inspector = await startInspector({ log: read(file), diff: opts.diff ? read(opts.diff) : undefined, dist: opts.dist, port: opts.port, every: opts.every });
  const { records, loadMs, every } = inspector.loaded();
  console.log(`${records} events indexed in ${Math.round(loadMs)} ms (a state snapshot every ${every} events)`);
  console.log(`inspector: ${inspector.url}  (Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await inspector.close();
  return 0;
}
