import { parentPort } from 'node:worker_threads';
import { writeSnapshot } from './recovery.ts';
import type { EngineState } from './state.ts';

/**
 * The snapshot writer's thread (server/engine/snapshots.ts SnapshotWriter): receives the state at a
 * seq (a structured copy made by postMessage), encodes it, hashes it and writes the file, off the
 * engine's event loop.
 */
parentPort?.on('message', (m: { id: number; dir: string; seq: number; state: EngineState }) => {
  writeSnapshot(m.dir, m.seq, m.state).then(
    (path) => parentPort?.postMessage({ id: m.id, path }),
    (err: unknown) => parentPort?.postMessage({ id: m.id, error: String((err as Error)?.message ?? err) }),
  );
});
