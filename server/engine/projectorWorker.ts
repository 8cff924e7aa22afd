import SqliteDatabase from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { Outcome } from './apply.ts';
import { SqliteProjectionWriter } from './projectorSqlite.ts';

/**
 * The projector's thread (server/engine/projectorThread.ts ProjectorThread): its own better-sqlite3
 * connection to the database file the engine's connection has open (WAL: readers there see each
 * batch once committed), the same pragmas as server/db/connection.ts openDb, and prepared
 * statements (SqliteProjectionWriter). Each message is one batch of durable outcomes in seq order
 * (plain data, a structured copy); the answer is the batch's result or its error's name and message.
 */
const { file, name } = workerData as { file: string; name: string };
let writer: SqliteProjectionWriter | null = null;
try {
  const sqlite = new SqliteDatabase(file, { fileMustExist: true });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
  writer = new SqliteProjectionWriter(sqlite, name);
  // Until this, the engine writes its batches in process (ProjectorThread.writeBatch).
  parentPort?.postMessage({ ready: true });
} catch (err) {
  parentPort?.postMessage({ fatal: String((err as Error)?.message ?? err) });
}

parentPort?.on('message', (m: { id: number; outcomes: Outcome[] }) => {
  try {
    if (!writer) throw new Error('the projector thread could not open the database');
    parentPort?.postMessage({ id: m.id, result: writer.write(m.outcomes) });
  } catch (err) {
    const e = err as Error;
    parentPort?.postMessage({ id: m.id, error: { name: e?.name ?? 'Error', message: String(e?.message ?? err) } });
  }
});
