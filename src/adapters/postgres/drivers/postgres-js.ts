/** Adapts a postgres.js `sql` instance to a Queryable (through `unsafe`, which takes `$1` parameters). */
import type { Queryable } from '../queryable.js'

/** The part of a postgres.js `sql` (or transaction) that latchkey uses. */
export interface PostgresJsLike {
  unsafe(sql: string, params?: any[]): PromiseLike<ArrayLike<any>>
}

export interface PostgresJsSqlLike extends PostgresJsLike {
  begin<R>(fn: (tx: PostgresJsLike) => Promise<R>): PromiseLike<R>
  end(options?: { timeout?: number }): PromiseLike<void>
}

export function isPostgresJs(value: unknown): value is PostgresJsSqlLike {
  if (typeof value !== 'function') return false
  const v = value as unknown as Partial<PostgresJsSqlLike>
  return typeof v.unsafe === 'function' && typeof v.begin === 'function'
}

function wrap(sql: PostgresJsLike): Queryable {
  return {
    async query<T>(text: string, params: unknown[]) {
      const result = await sql.unsafe(text, params as any[])
      return { rows: Array.from(result) as T[] }
    },
  }
}

export function fromPostgresJs(sql: PostgresJsSqlLike): Queryable {
  return {
    ...wrap(sql),
    transaction: async (fn) => (await sql.begin((tx) => fn(wrap(tx)))) as Awaited<ReturnType<typeof fn>>,
    end: async () => {
      await sql.end()
    },
  }
}
