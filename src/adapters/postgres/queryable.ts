/**
 * The only thing the SQL adapter needs from a database driver. Keeping it this small lets one
 * adapter run over `pg`, postgres.js, PGlite or anything else that can send a parameterised query.
 */
export interface QueryResult<T> {
  rows: T[]
}

export interface Queryable {
  /** Runs one statement with `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<QueryResult<T>>
  /** Runs `fn` inside one transaction on one connection; needed by `migrate`. */
  transaction?<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>
  /** Closes the connection or pool. */
  end?(): Promise<void>
}

export function isQueryable(value: unknown): value is Queryable {
  return typeof value === 'object' && value !== null && typeof (value as Queryable).query === 'function'
}

/** One statement's rows: how the SQL adapter's methods reach the database. */
export type Rows = <T>(sql: string, params: unknown[]) => Promise<T[]>
