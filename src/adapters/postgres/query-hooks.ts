/**
 * Observing the queries an adapter sends, so a benchmark can report queries per request and a
 * test can check that a method takes one round trip. Transactions are observed too.
 */
import type { Queryable } from './queryable.js'

export type QueryListener = (sql: string, params: unknown[]) => void

/** A Queryable that calls `listener` before each query it sends, inside transactions as well. */
export function withQueryListener(db: Queryable, listener: QueryListener): Queryable {
  const observed: Queryable = {
    query(sql, params) {
      listener(sql, params)
      return db.query(sql, params)
    },
  }
  if (db.transaction) {
    const transaction = db.transaction.bind(db)
    observed.transaction = (fn) => transaction((tx) => fn(withQueryListener(tx, listener)))
  }
  if (db.end) observed.end = db.end.bind(db)
  return observed
}

export interface CountingQueryable extends Queryable {
  /** Queries sent since creation or the last `reset()`. */
  readonly count: number
  reset(): void
}

/** Wraps a Queryable and counts the queries sent through it. */
export function countQueries(db: Queryable): CountingQueryable {
  let count = 0
  const observed = withQueryListener(db, () => {
    count++
  })
  // defineProperty, not Object.assign: assign would copy the getter's value once instead of the getter.
  Object.defineProperty(observed, 'count', { get: () => count, enumerable: true })
  return Object.assign(observed as Queryable & { readonly count: number }, {
    reset() {
      count = 0
    },
  })
}
