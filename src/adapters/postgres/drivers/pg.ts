/** Adapts a `pg` Pool (node-postgres) to a Queryable; a transaction holds one pooled client. */
import type { Queryable } from '../queryable.js'

/** The part of a `pg` client that latchkey uses. */
export interface PgClientLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>
}

/** The part of a `pg` Pool that latchkey uses. */
export interface PgPoolLike extends PgClientLike {
  connect(): Promise<PgClientLike & { release(error?: Error | boolean): void }>
  end(): Promise<void>
}

export function isPgPool(value: unknown): value is PgPoolLike {
  const v = value as PgPoolLike & { totalCount?: unknown }
  return typeof v === 'object' && v !== null && typeof v.query === 'function' && typeof v.connect === 'function' && 'totalCount' in v
}

function wrapClient(client: PgClientLike): Queryable {
  return { query: (sql, params) => client.query(sql, params) }
}

export function fromPg(pool: PgPoolLike): Queryable {
  return {
    query: (sql, params) => pool.query(sql, params),
    async transaction(fn) {
      const client = await pool.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const result = await fn(wrapClient(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        try {
          await client.query('ROLLBACK')
        } catch (rollbackError) {
          // A connection that cannot roll back is not safe to reuse: hand it back as broken.
          broken = rollbackError as Error
        }
        throw error
      } finally {
        client.release(broken)
      }
    },
    end: () => pool.end(),
  }
}
