/**
 * The PostgreSQL store on PGlite (always) and on a PostgreSQL server (DATABASE_URL), through the
 * table that migration 2 creates. The server run uses a pool of 10, so the 100 parallel hits
 * really race on separate connections.
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fromPg, fromPGlite, migrate } from '../../src/adapters/postgres/index.js'
import { postgresRateLimitStore, type PostgresRateLimitStore } from '../../src/adapters/postgres/rate-limit-store.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { needsService } from '../support/needs-service.js'
import { runStoreContract } from './store-contract.js'

describe('PGlite', () => {
  let db: PGlite
  let store: PostgresRateLimitStore
  beforeAll(async () => {
    db = await PGlite.create()
    await migrate(db)
    store = postgresRateLimitStore(db)
  })
  afterAll(() => db.close())
  runStoreContract('postgres store on PGlite', () => ({ store, followsNow: true }))

  test('prune deletes only ended windows', async () => {
    const s = postgresRateLimitStore(db, { pruneEvery: 0 })
    await s.hit('prune:old', 1, 1000)
    await s.hit('prune:new', 60, 1000)
    expect(await s.prune(5000)).toBeGreaterThanOrEqual(1)
    const { rows } = await db.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key LIKE 'prune:%'`)
    expect(rows.map((r) => r.key)).toEqual(['prune:new'])
  })

  test('each hit is one statement', async () => {
    let statements = 0
    const counted = postgresRateLimitStore({ query: (sql: string, params: unknown[]) => (statements++, fromPGlite(db).query(sql, params)) }, { pruneEvery: 0 })
    await counted.hit('one-statement', 60, 0)
    await counted.hit('one-statement', 60, 1)
    expect(statements).toBe(2)
  })
})

const url = needsService('DATABASE_URL', 'PostgreSQL server rate-limit suite', 'postgres://postgres@127.0.0.1:5432/test', 'test/rate-limit')
if (url) {
  describe('PostgreSQL server', () => {
    let schema: IsolatedSchema
    let store: PostgresRateLimitStore
    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      const pool = schema.pgPool(10)
      await migrate(pool)
      store = postgresRateLimitStore(fromPg(pool))
    })
    afterAll(() => schema?.drop())
    runStoreContract('postgres store on a PostgreSQL server', () => ({ store, followsNow: true }))

    test('two stores on two pools (two servers) share one count', async () => {
      const other = postgresRateLimitStore(schema.postgresJs(5))
      const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).hit('shared', 60, 0)))
      expect(Math.max(...hits.map((h) => h.count))).toBe(40)
    })
  })
}
