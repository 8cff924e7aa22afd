import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EngineState } from './state.ts';

/** The file URL of tsx's ESM loader API (from its package's exports), for the worker to register. */
export function tsxEsmApi(): string {
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = pkg.exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(join(dirname(pkgPath), entry)).href;
}

/**
 * Snapshots written off the hot path (issue 28 step 4): `write(dir, seq, state)` hands the state at
 * `seq` to a worker thread (postMessage makes the structured copy, the one synchronous cost on the
 * engine's loop; the live state moves on at once) which encodes it, hashes it and writes
 * `<dir>/snapshot-<seq>.json` atomically (server/engine/recovery.ts writeSnapshot). Resolves with the
 * file's path once it is on disk. One worker, writes in order.
 */
export class SnapshotWriter {
  private readonly worker: Worker;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (path: string) => void; reject: (err: Error) => void }>();

  constructor() {
    // The worker runs the TypeScript sources as the server does (tsx's loader, registered in the worker first).
    const code = `import { register } from ${JSON.stringify(tsxEsmApi())}; register(); await import(${JSON.stringify(new URL('./snapshotWorker.ts', import.meta.url).href)});`;
    this.worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
    this.worker.on('message', (m: { id: number; path?: string; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.path !== undefined) w.resolve(m.path);
      else w.reject(new Error(`snapshot not written: ${m.error ?? 'unknown error'}`));
    });
    this.worker.on('error', (err) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    });
    this.worker.unref();
  }

  write(dir: string, seq: number, state: EngineState): Promise<string> {
    const id = this.next++;
    return new Promise<string>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, dir, seq, state });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
