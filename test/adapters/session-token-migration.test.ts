/**
 * Migration 4 hashes the session tokens that schema version 2 stored in clear, as the server now
 * does, so a browser signed in before the upgrade is still signed in after it. On PGlite, and on
 * PostgreSQL when DATABASE_URL is set.
 */
import { createHash, randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, test } from 'vitest'
import { fromPg, fromPGlite, migrate, PostgresAdapter, type Queryable } from '../../src/adapters/postgres/index.js'
import { createVersionTable, migrations, VERSION_TABLE } from '../../src/adapters/postgres/schema.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'
import { createIsolatedSchema, type IsolatedSchema } from './isolated-schema.js'

const url = process.env.DATABASE_URL

/** Brings an empty database to `version` exactly, as a latchkey of that version would have. */
async function migrateTo(db: Queryable, version: number): Promise<void> {
  await db.query(createVersionTable, [])
  for (const migration of migrations.filter((m) => m.version <= version)) {
    for (const statement of migration.statements) await db.query(statement, [])
    await db.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES ($1::integer, $2::text)`, [migration.version, migration.name])
  }
}

function runMigrationCheck(name: string, open: () => Promise<Queryable>) {
  test(`${name}: a session stored in clear by schema version 2 reads through its cookie after migrating`, async () => {
    const db = await open()
    await migrateTo(db, 2)
    // What latchkey before the upgrade wrote: the cookie's value itself.
    const cookie = randomBytes(32).toString('base64url')
    // Made a minute ago under the default 30 days: not due, so the read below leaves it as it is.
    const expires = new Date(Date.now() + 30 * 86400_000 - 60_000)
    await db.query(`INSERT INTO users (id, email, name) VALUES ('user-old', 'old@example.com', 'Old')`, [])
    await db.query(`INSERT INTO sessions (session_token, user_id, expires) VALUES ($1::text, 'user-old', $2::timestamptz)`, [cookie, expires])

    expect((await migrate(db)).applied).toContainEqual({ version: 4, name: 'hashed session tokens' })
    const { rows } = await db.query<{ session_token: string }>(`SELECT session_token FROM sessions`, [])
    expect(rows).toEqual([{ session_token: createHash('sha256').update(cookie).digest('hex') }])

    const handler = Latchkey({
      secret: testSecret,
      adapter: PostgresAdapter(db),
      session: { strategy: 'database' },
      providers: [Credentials({ authorize: () => null })],
    })
    const jar = new Jar(handler)
    jar.cookies.set('latchkey.session-token', cookie)
    const session = await jar.session()
    expect(session?.user).toMatchObject({ id: 'user-old', email: 'old@example.com' })
    expect(Date.parse(session.expires)).toBe(expires.getTime())
  }, 60_000)
}

describe('migration 3: hashed session tokens', () => {
  const closers: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const close of closers) await close()
  })

  runMigrationCheck('PGlite', async () => {
    const db = fromPGlite(await PGlite.create())
    closers.push(() => db.end!())
    return db
  })

  if (url) {
    runMigrationCheck('PostgreSQL', async () => {
      const schema: IsolatedSchema = await createIsolatedSchema(url)
      closers.push(() => schema.drop())
      return fromPg(schema.pgPool(2))
    })
  } else {
    console.warn('*** DATABASE_URL is not set: the session token migration did NOT run against PostgreSQL, only PGlite ***')
  }
})
