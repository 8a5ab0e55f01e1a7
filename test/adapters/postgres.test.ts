/**
 * The contract suite, the SQL checks and migrate's concurrency against a real PostgreSQL server,
 * through both drivers (pg and postgres.js). Needs DATABASE_URL; CI always sets it.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runAdapterTests } from '../../src/adapter-test/index.js'
import { fromPg, fromPostgresJs, LATEST_VERSION, migrate, PostgresAdapter, schemaVersion, VERSION_TABLE } from '../../src/adapters/postgres/index.js'
import { migrations } from '../../src/adapters/postgres/schema.js'
import { createIsolatedSchema, type IsolatedSchema } from './isolated-schema.js'
import { runSqlChecks } from './sql-checks.js'
import { needsService } from '../support/needs-service.js'
import { schemaPlugins } from './schema-plugins.js'

const url = needsService('DATABASE_URL', 'PostgreSQL server suite', 'postgres://postgres@127.0.0.1:5432/test', 'test/adapters')

if (url) {
  const schemas: IsolatedSchema[] = []
  const isolated = async () => {
    const schema = await createIsolatedSchema(url)
    schemas.push(schema)
    return schema
  }
  afterAll(async () => {
    await Promise.all(schemas.map((schema) => schema.drop()))
  })

  /** One schema, migrated through pg with a plugin's tables, shared by the pg-driver suites. */
  const plugins = schemaPlugins
  let pgDatabase: ReturnType<typeof fromPg> | undefined
  const pgShared = async () => {
    if (!pgDatabase) {
      const schema = await isolated()
      pgDatabase = fromPg(schema.pgPool())
      await migrate(pgDatabase, { plugins })
    }
    return pgDatabase
  }

  runAdapterTests({ name: 'PostgresAdapter over pg (PostgreSQL server)', adapter: async () => PostgresAdapter(await pgShared(), { plugins }), plugins })
  runSqlChecks('PostgreSQL server via pg', pgShared)

  /** Another schema, migrated through postgres.js, shared by the postgres.js suites. */
  let postgresJsDatabase: ReturnType<typeof fromPostgresJs> | undefined
  const postgresJsShared = async () => {
    if (!postgresJsDatabase) {
      postgresJsDatabase = fromPostgresJs((await isolated()).postgresJs())
      await migrate(postgresJsDatabase)
    }
    return postgresJsDatabase
  }

  runAdapterTests({
    name: 'PostgresAdapter over postgres.js (PostgreSQL server)',
    adapter: async () => PostgresAdapter(await postgresJsShared()),
  })
  runSqlChecks('PostgreSQL server via postgres.js', postgresJsShared)

  describe('prepared statements over pg', () => {
    /** The names of the statements prepared on the pool's one connection. */
    const prepared = async (pool: { query(sql: string): Promise<{ rows: Array<{ name: string }> }> }) =>
      (await pool.query('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name).filter((n) => n.startsWith('latchkey_'))

    test("the adapter's statements are prepared once per connection; two adapters on one pool share the names", async () => {
      const schema = await isolated()
      const pool = schema.pgPool(1)
      const first = PostgresAdapter(fromPg(pool))
      await migrate(first.db)
      const user = await first.createUser({ id: 'prep-user', email: 'prep@example.com', emailVerified: null })
      await first.createSession({ sessionToken: 'prep-token', userId: user.id, expires: new Date(Date.now() + 60_000) })
      const before = await prepared(pool)
      expect((await first.getSessionAndUser('prep-token'))?.user.email).toBe('prep@example.com')
      const after = await prepared(pool)
      expect(after.length).toBe(before.length + 1)
      // Again, and through a second adapter on the same pool: no new statement, no name clash.
      const second = PostgresAdapter(fromPg(pool))
      expect((await first.getSessionAndUser('prep-token'))?.user.id).toBe('prep-user')
      expect((await second.getSessionAndUser('prep-token'))?.user.id).toBe('prep-user')
      expect(await second.getSessionAndUser('no-such-token')).toBeNull()
      expect((await prepared(pool)).sort()).toEqual(after.sort())
    })

    test('prepare: false sends every statement unnamed', async () => {
      const schema = await isolated()
      const pool = schema.pgPool(1)
      const adapter = PostgresAdapter(fromPg(pool, { prepare: false }))
      await migrate(adapter.db)
      await adapter.createUser({ id: 'plain-user', email: 'plain@example.com', emailVerified: null })
      expect((await adapter.getUser('plain-user'))?.email).toBe('plain@example.com')
      expect(await prepared(pool)).toEqual([])
    })
  })

  describe('migrate on a PostgreSQL server', () => {
    test('two servers starting at once both migrate without error, and the schema is applied once', async () => {
      const schema = await isolated()
      const serverA = fromPg(schema.pgPool(2))
      const serverB = fromPg(schema.pgPool(2))
      const serverC = fromPostgresJs(schema.postgresJs(2))
      const results = await Promise.all([migrate(serverA), migrate(serverB), migrate(serverC)])
      expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1)
      for (const result of results) expect(result.to).toBe(LATEST_VERSION)
      const { rows } = await serverA.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${VERSION_TABLE}`, [])
      expect(rows[0]!.n).toBe(String(migrations.length))
      expect(await schemaVersion(serverB)).toBe(LATEST_VERSION)
      // The schema works for both after the race.
      const adapter = PostgresAdapter(serverB)
      const user = await adapter.createUser({ id: 'after-race', email: 'race@example.test', emailVerified: null })
      expect(await PostgresAdapter(serverA).getUser(user.id)).toEqual(user)
    })

    test('schemaVersion is 0 on an empty schema, and migrate reports what it applied', async () => {
      const schema = await isolated()
      const db = fromPg(schema.pgPool(1))
      expect(await schemaVersion(db)).toBe(0)
      const result = await migrate(db)
      expect(result.from).toBe(0)
      expect(result.to).toBe(LATEST_VERSION)
      expect(result.applied.map((m) => m.version)).toEqual(migrations.map((m) => m.version))
      expect(await migrate(db)).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [] })
    })

    test('a database newer than this latchkey is refused with a clear error', async () => {
      const schema = await isolated()
      const db = fromPg(schema.pgPool(1))
      await migrate(db)
      await db.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES ($1, $2)`, [LATEST_VERSION + 1, 'from the future'])
      await expect(migrate(db)).rejects.toThrow(/newer than this latchkey knows/)
    })

    test('the schema lives only in its own search_path schema', async () => {
      const schema = await isolated()
      const db = fromPg(schema.pgPool(1))
      await migrate(db)
      const { rows } = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
        [schema.name],
      )
      expect(rows.map((r) => r.table_name)).toEqual([
        'accounts',
        'authenticators',
        'factors',
        VERSION_TABLE,
        'passwords',
        'rate_limits',
        'recovery_codes',
        'sessions',
        'users',
        'verification_codes',
        'verification_tokens',
      ])
    })
  })
}
