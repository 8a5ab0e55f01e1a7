/** Adapts a `pg` Pool (node-postgres) to a Queryable; a transaction holds one pooled client. */
import { toHex } from '../../../core/encoding.js'
import type { Queryable } from '../queryable.js'

/** The part of a `pg` client that latchkey uses. */
export interface PgClientLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>
}

/** A query with a statement name: `pg` parses and plans it once per connection. */
interface NamedQuery {
  name: string | undefined
  text: string
  values: unknown[]
}

export interface FromPgOptions {
  /**
   * Send the adapter's statements as named prepared statements (default true): PostgreSQL then
   * parses and plans each once per connection rather than on every call. Set false behind a
   * pooler that does not keep prepared statements across transactions (PgBouncer in
   * transaction mode before 1.21).
   */
  prepare?: boolean
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

/** The adapter's statements are a fixed set; the bound only guards against a caller's endless variety. */
const maxNamedStatements = 256

/**
 * A name from the statement's text, so two adapters on one pool (or two copies of latchkey) never
 * give one name to two statements, which `pg` refuses on a connection. Hashed once per statement
 * with Web Crypto (a promise the first time), so the driver imports no `node:` module.
 */
function statementNames(): (sql: string) => string | Promise<string> | undefined {
  const names = new Map<string, string | Promise<string>>()
  return (sql) => {
    let name = names.get(sql)
    if (name === undefined && names.size < maxNamedStatements) {
      name = crypto.subtle.digest('SHA-256', new TextEncoder().encode(sql)).then((hash) => {
        const named = `latchkey_${toHex(hash).slice(0, 24)}`
        names.set(sql, named)
        return named
      })
      names.set(sql, name)
    }
    return name
  }
}

export function fromPg(pool: PgPoolLike, options: FromPgOptions = {}): Queryable {
  const nameOf = options.prepare === false ? undefined : statementNames()
  const named = pool as unknown as { query(q: NamedQuery): Promise<{ rows: any[] }> }
  const namedQuery = (name: string | undefined, sql: string, params: unknown[]) => named.query({ name, text: sql, values: params })
  return {
    query: nameOf
      ? (sql, params) => {
          const name = nameOf(sql)
          return typeof name === 'object' ? name.then((known) => namedQuery(known, sql, params)) : namedQuery(name, sql, params)
        }
      : (sql, params) => pool.query(sql, params),
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
