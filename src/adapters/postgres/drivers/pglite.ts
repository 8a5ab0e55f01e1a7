/**
 * Adapts a PGlite database (PostgreSQL in WASM) to a Queryable. PGlite is one connection that runs
 * one statement at a time; its `transaction` holds that connection until the callback ends.
 */
import type { Queryable } from '../queryable.js'

/** The part of a PGlite instance (or transaction) that latchkey uses. */
export interface PGliteLike {
  query<T>(sql: string, params?: any[]): Promise<{ rows: T[] }>
}

export interface PGliteDbLike extends PGliteLike {
  transaction<R>(fn: (tx: PGliteLike) => Promise<R>): Promise<R>
  close(): Promise<void>
}

export function isPGlite(value: unknown): value is PGliteDbLike {
  const v = value as PGliteDbLike & { exec?: unknown }
  return (
    typeof v === 'object' && v !== null && typeof v.query === 'function' && typeof v.transaction === 'function' &&
    typeof v.close === 'function' && typeof v.exec === 'function'
  )
}

function wrap(db: PGliteLike): Queryable {
  return { query: (sql, params) => db.query(sql, params as any[]) }
}

export function fromPGlite(db: PGliteDbLike): Queryable {
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    end: () => db.close(),
  }
}
