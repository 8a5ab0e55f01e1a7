/**
 * A PostgreSQL server that ends connections under the adapter, met for real: a read whose
 * connection is ended mid-statement is answered through a fresh one, a write is not sent again
 * and says `StoreUnavailable`, a server that refuses is `StoreUnavailable` for reads, writes and
 * `ping`, and the pool `openDatabase` makes takes its sizes or is the app's own.
 * (test/integration/database-outage.test.ts restarts a whole cluster under running processes.)
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { openDatabase, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { freePort } from '../support/free-port.js'
import { needsService } from '../support/needs-service.js'
import { createIsolatedSchema, type IsolatedSchema } from './isolated-schema.js'

const url = needsService('DATABASE_URL', 'PostgreSQL outage suite', 'postgres://postgres@127.0.0.1:5432/test', 'test/adapters/postgres-outage.test.ts')!

let schema: IsolatedSchema
const pools: pg.Pool[] = []
beforeAll(async () => {
  schema = await createIsolatedSchema(url)
})
afterAll(async () => {
  await Promise.allSettled(pools.map((pool) => pool.end()))
  await schema?.drop()
})

/** A pool of one connection, named so that only its backend is ended. */
function taggedPool(): { pool: pg.Pool; tag: string } {
  const tag = `lk_outage_${randomBytes(4).toString('hex')}`
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: tag, options: `-c search_path=${schema.name}` })
  pool.on('error', () => {})
  pools.push(pool)
  return { pool, tag }
}

/** Ends the tagged backend once it is running a statement; answers how many it ended. */
async function endWhileActive(tag: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    for (let i = 0; i < 200; i++) {
      const { rows } = await admin.query<{ ended: boolean }>("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'", [tag])
      if (rows.length) return rows.length
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`no active statement of ${tag} appeared`)
  } finally {
    await admin.end()
  }
}

describe('a connection ended under a statement', () => {
  test('a read is sent once more on a fresh connection and answers', async () => {
    const { pool, tag } = taggedPool()
    const sent: string[] = []
    const adapter = PostgresAdapter(pool, { onQuery: (sql) => sent.push(sql) })
    const read = adapter.db.query<{ answer: number }>('SELECT 42 AS answer FROM pg_sleep(1)', [])
    expect(await endWhileActive(tag)).toBe(1)
    expect((await read).rows).toEqual([{ answer: 42 }])
    expect(sent).toHaveLength(2)
  })

  test('a write is not sent again: StoreUnavailable, and nothing was written', async () => {
    const { pool, tag } = taggedPool()
    await pool.query('CREATE TABLE outage_writes (n int)')
    const sent: string[] = []
    const adapter = PostgresAdapter(pool, { onQuery: (sql) => sent.push(sql) })
    const write = adapter.db.query('INSERT INTO outage_writes SELECT 1 FROM pg_sleep(1)', []).catch((e: unknown) => e)
    expect(await endWhileActive(tag)).toBe(1)
    const error = (await write) as Error & { code: string; status: number; retryAfter: number; cause: { code: string } }
    expect(error).toMatchObject({ code: 'StoreUnavailable', status: 503, retryAfter: 3 })
    expect(error.cause.code).toBe('57P01')
    expect(sent).toHaveLength(1)
    expect((await pool.query('SELECT count(*)::int AS n FROM outage_writes')).rows[0].n).toBe(0)
  })
})

describe('a server that refuses connections', () => {
  let adapter: ReturnType<typeof PostgresAdapter>
  beforeAll(async () => {
    const pool = new pg.Pool({ host: '127.0.0.1', port: await freePort(), user: 'postgres', database: 'test', max: 2 })
    pools.push(pool)
    adapter = PostgresAdapter(pool)
  })

  test('a read, a write and ping are StoreUnavailable, the refusal kept as the cause', async () => {
    for (const call of [() => adapter.getSessionAndUser('token'), () => adapter.createUser({ id: 'u', email: 'u@example.test', emailVerified: null }), () => adapter.ping()]) {
      const error = (await Promise.resolve(call()).catch((e: unknown) => e)) as Error & { code: string; cause: unknown }
      expect(error).toMatchObject({ name: 'AdapterError', code: 'StoreUnavailable', status: 503 })
      expect(JSON.stringify(error.message)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/)
      expect(String((error.cause as Error).message ?? error.cause)).toMatch(/ECONNREFUSED|connect/)
    }
  })

  test("the rate-limit store in the same database says StoreUnavailable to the rate-limit check", async () => {
    await expect(adapter.rateLimitStore().hit('k', 60, Date.now())).rejects.toMatchObject({ code: 'StoreUnavailable' })
  })
})

describe('openDatabase and its pool', () => {
  const scoped = () => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema.name}`)}`

  test('takes the pool sizes, waits 5 s for a connection by default, and hands out its pool', async () => {
    const db = await openDatabase({ url: scoped(), pool: { max: 3, idleTimeoutMillis: 1000 } })
    try {
      const options = (db.pool as unknown as { options: Record<string, unknown> }).options
      expect(options).toMatchObject({ max: 3, idleTimeoutMillis: 1000, connectionTimeoutMillis: 5000 })
      await db.ping()
      expect(db.pool!.totalCount).toBeGreaterThan(0)
    } finally {
      await db.close()
    }
    expect(db.pool!.totalCount).toBe(0)
  })

  test('the two-argument form takes the same pool options', async () => {
    const db = await openDatabase(scoped(), { pool: { connectionTimeoutMillis: 250 } })
    try {
      expect((db.pool as unknown as { options: Record<string, unknown> }).options.connectionTimeoutMillis).toBe(250)
    } finally {
      await db.close()
    }
  })

  test.each([
    [{ max: 0 }, /expected pool\.max to be a whole number >= 1, got 0/],
    [{ idleTimeoutMillis: -1 }, /expected pool\.idleTimeoutMillis to be a whole number >= 0, got -1/],
    [{ connectionTimeoutMillis: '5000' }, /expected pool\.connectionTimeoutMillis to be a whole number >= 0, got a string/],
    [{ ssl: true }, /pool\.ssl is not an option latchkey passes on; expected max, idleTimeoutMillis, connectionTimeoutMillis, maxLifetimeSeconds, or a pg\.Pool of your own/],
  ])('refuses pool %o, saying what it expected', async (pool, message) => {
    await expect(openDatabase({ url: scoped(), pool: pool as never })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(message) })
  })

  test("the app's own pool: migrated and used, its own error listener kept, and left open by close()", async () => {
    const pool = new pg.Pool({ connectionString: scoped(), max: 2 })
    pools.push(pool)
    const own = () => {}
    pool.on('error', own)
    const db = await openDatabase({ pool })
    expect(db.pool).toBe(pool)
    expect(pool.listeners('error')).toEqual([own])
    const user = await db.createUser({ id: 'own-pool', email: 'own-pool@example.test', emailVerified: null })
    expect(await db.getUser(user.id)).toEqual(user)
    expect(db.location).toMatch(/^postgres:\/\//)
    await db.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
  })

  test("an app's pool without an error listener gets latchkey's, so an idle connection ended does not end the process", async () => {
    const pool = new pg.Pool({ connectionString: scoped(), max: 1 })
    pools.push(pool)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const db = await openDatabase({ pool })
      expect(pool.listenerCount('error')).toBe(1)
      await db.close()
    } finally {
      warn.mockRestore()
    }
  })
})
