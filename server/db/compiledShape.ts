import type { Compilable, CompiledQuery, Insertable, QueryResult } from 'kysely';
import type { Database } from './schema.ts';
import { dialectOf } from './connection.ts';
import type { Db } from './connection.ts';

/**
 * A query whose SHAPE is fixed and whose values change, built and compiled once per dialect and then
 * run with fresh parameters. Kysely builds an operation tree and compiles it to SQL on every call
 * (10-20 µs per statement); a ledger posting runs a dozen such statements per order, so on the hot
 * path that was more time than SQLite spent running them.
 *
 * `build` receives unique marker strings in place of its arguments; every parameter of the compiled
 * query that is a marker is replaced by the matching argument at run time, any other parameter (a
 * constant of the builder) is kept. A builder that does not bind every argument as a parameter (uses one
 * as an identifier or in a list whose length varies) is refused when first compiled. `build` must pass
 * each argument through unchanged: a conversion inside it (String(x), x * 2) would be applied to the
 * marker at compile time only, never to the real values.
 */
export function compiledShape<A extends readonly unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
  arity: A['length'],
): (db: Db, ...args: A) => Promise<QueryResult<R>> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000shape-arg-${i}\u0000`);
  const compiled = new Map<string, { query: CompiledQuery<R>; slots: readonly (number | { value: unknown })[] }>();
  const compile = (db: Db) => {
    const query = build(db, ...(markers as unknown as A)).compile();
    const slots = query.parameters.map((p) => {
      const i = typeof p === 'string' ? markers.indexOf(p) : -1;
      return i >= 0 ? i : { value: p };
    });
    for (let i = 0; i < arity; i++) {
      if (!slots.includes(i)) throw new Error(`compiledShape: argument ${i} is not bound as a parameter in: ${query.sql}`);
    }
    if (markers.some((m) => query.sql.includes(m))) throw new Error(`compiledShape: an argument became part of the SQL text: ${query.sql}`);
    return { query, slots };
  };
  return async (db, ...args) => {
    const dialect = dialectOf(db);
    let c = compiled.get(dialect);
    if (c === undefined) {
      c = compile(db);
      compiled.set(dialect, c);
    }
    const { query, slots } = c;
    const parameters = slots.map((s) => (typeof s === 'number' ? args[s] : s.value));
    return db.executeQuery<R>({ ...query, parameters });
  };
}

type Runner = (db: Db, ...values: unknown[]) => Promise<QueryResult<unknown>>;
const rowShapes = new Map<string, Runner>();

/**
 * `db.insertInto(table).values(row)` through {@link compiledShape}, one compiled statement per table and
 * set of columns. Columns whose value is undefined are left out (as Kysely does); a row holding an SQL
 * expression (a value Kysely would compile into the text) takes Kysely's own path.
 */
export function insertRow<T extends keyof Database & string>(db: Db, table: T, row: Insertable<Database[T]>): Promise<QueryResult<unknown>> {
  const r = row as Record<string, unknown>;
  const cols = Object.keys(r).filter((c) => r[c] !== undefined);
  if (cols.some((c) => typeof r[c] === 'object' && r[c] !== null && 'toOperationNode' in (r[c] as object))) {
    return db.insertInto(table).values(row as never).execute().then(() => ({ rows: [] }));
  }
  const key = `${table}(${cols.join(',')})`;
  let run = rowShapes.get(key);
  if (run === undefined) {
    run = compiledShape((d: Db, ...values: unknown[]) => d.insertInto(table).values(Object.fromEntries(cols.map((c, i) => [c, values[i]])) as never), cols.length);
    rowShapes.set(key, run);
  }
  return run(db, ...cols.map((c) => r[c]));
}
