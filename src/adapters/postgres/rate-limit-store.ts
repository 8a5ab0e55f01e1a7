/**
 * The PostgreSQL store (also PGlite and PostgreSQL-compatible engines), in the `rate_limits` table
 * that migration 2 creates. Each hit is one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`: the
 * row lock it takes makes concurrent hits from any number of servers count exactly. Expired rows
 * are reused by the next hit of their key and swept now and then by `prune`.
 */
import { checkHitArguments, type RateLimitStore } from '../../core/rate-limit.js'
import { toQueryable } from './drivers/index.js'
import { errorCode } from './sql-errors.js'

export interface PostgresRateLimitStoreOptions {
  /** Every this many hits, one hit also deletes expired rows (not awaited). Default 1000; 0 never. */
  pruneEvery?: number
  /** Told when a background prune fails; the hit itself has succeeded. */
  onPruneError?: (error: unknown) => void
}

export interface PostgresRateLimitStore extends RateLimitStore {
  refund(key: string, now: number): Promise<void>
  reset(key: string): Promise<void>
  /** Deletes every row whose window ended before `now`; answers how many. */
  prune(now?: number): Promise<number>
}

const hitSql = `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1::text, 1, $2::bigint + $3::bigint)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN r.reset_at <= $2::bigint THEN 1 ELSE r.hits + 1 END,
  reset_at = CASE WHEN r.reset_at <= $2::bigint THEN $2::bigint + $3::bigint ELSE r.reset_at END
RETURNING hits, reset_at`

/** `queryable`: a pg Pool, a postgres.js sql, a PGlite database, or any Queryable (such as `adapter.db`). */
export function postgresRateLimitStore(queryable: unknown, options: PostgresRateLimitStoreOptions = {}): PostgresRateLimitStore {
  const db = toQueryable(queryable)
  const pruneEvery = options.pruneEvery ?? 1000
  let hits = 0

  async function prune(now = Date.now()): Promise<number> {
    const { rows } = await db.query<{ n: string | number }>(
      'WITH gone AS (DELETE FROM rate_limits WHERE reset_at <= $1::bigint RETURNING 1) SELECT count(*) AS n FROM gone',
      [Math.floor(now)],
    )
    return Number(rows[0]?.n ?? 0)
  }

  return {
    async hit(key, windowSeconds, now) {
      checkHitArguments(key, windowSeconds, now)
      const { rows } = await db
        .query<{ hits: string | number; reset_at: string | number }>(hitSql, [key, Math.floor(now), Math.ceil(windowSeconds * 1000)])
        .catch((error: unknown) => {
          if (errorCode(error) !== '42P01') throw error // 42P01: undefined_table
          throw new Error('postgresRateLimitStore: the rate_limits table is missing; bring the schema to version 2 with `latchkey migrate` (or openDatabase, which migrates)', { cause: error })
        })
      const row = rows[0]
      if (!row) throw new Error('postgresRateLimitStore: the upsert returned no row')
      if (pruneEvery > 0 && ++hits % pruneEvery === 0) {
        prune(now).catch((error) => options.onPruneError?.(error))
      }
      return { count: Number(row.hits), resetAt: Number(row.reset_at) }
    },
    async refund(key, now) {
      await db.query('UPDATE rate_limits SET hits = hits - 1 WHERE key = $1::text AND reset_at > $2::bigint AND hits > 0', [key, Math.floor(now)])
    },
    async reset(key) {
      await db.query('DELETE FROM rate_limits WHERE key = $1::text', [key])
    },
    prune,
  }
}
