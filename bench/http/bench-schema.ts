/**
 * The PostgreSQL row's stores: one schema per library on the DATABASE_URL server, each seeded with
 * the same users and sessions in one statement. latchkey: its migrations and SQL adapter (the
 * cookie's SHA-256 stored, as latchkey does). Auth.js: @auth/pg-adapter's documented tables, plus
 * a unique index on "sessionToken" (its schema has none; a deployment of 10,000 sessions would
 * add one, and without it every read is a scan).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { fromPg, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter } from '../../src/core/types.js'

const authjsTables = [
  `CREATE TABLE users (id SERIAL PRIMARY KEY, name text, email text, "emailVerified" timestamptz, image text)`,
  `CREATE TABLE accounts (id SERIAL PRIMARY KEY, "userId" integer NOT NULL, type text NOT NULL, provider text NOT NULL,
    "providerAccountId" text NOT NULL, refresh_token text, access_token text, expires_at bigint, id_token text, scope text,
    session_state text, token_type text)`,
  `CREATE TABLE sessions (id SERIAL PRIMARY KEY, "userId" integer NOT NULL, expires timestamptz NOT NULL, "sessionToken" text NOT NULL)`,
  `CREATE UNIQUE INDEX sessions_token ON sessions ("sessionToken")`,
  `CREATE TABLE verification_token (identifier text NOT NULL, expires timestamptz NOT NULL, token text NOT NULL, PRIMARY KEY (identifier, token))`,
]

export async function benchSchema(library: 'latchkey' | 'authjs', users: number, tokenOf: (i: number) => string): Promise<{ adapter: Adapter; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('The PostgreSQL row needs DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/test)')
  const schema = `lk_bench_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` })
  // The token pattern is `tokenOf(i)` with i spliced in by SQL: tokenOf(0) split at the 0.
  const [head, tail] = tokenOf(0).split(/(?<=-)0(?=-)/)
  const token = `'${head}' || i || '${tail}'`
  const expires = `now() + interval '30 days'`
  let adapter: Adapter
  if (library === 'latchkey') {
    const db = fromPg(pool)
    await migrate(db)
    await pool.query(`INSERT INTO users (id, email, name) SELECT 'user-' || i, 'u' || i || '@bench.example', 'User ' || i FROM generate_series(0, $1 - 1) AS i`, [users])
    await pool.query(`INSERT INTO sessions (session_token, user_id, expires) SELECT encode(sha256(convert_to(${token}, 'UTF8')), 'hex'), 'user-' || i, ${expires} FROM generate_series(0, $1 - 1) AS i`, [users])
    adapter = PostgresAdapter(db)
  } else {
    for (const statement of authjsTables) await pool.query(statement)
    await pool.query(`INSERT INTO users (id, email, name) SELECT i + 1, 'u' || i || '@bench.example', 'User ' || i FROM generate_series(0, $1 - 1) AS i`, [users])
    await pool.query(`INSERT INTO sessions ("userId", "sessionToken", expires) SELECT i + 1, ${token}, ${expires} FROM generate_series(0, $1 - 1) AS i`, [users])
    const { default: PgAdapter } = await import('@auth/pg-adapter')
    adapter = PgAdapter(pool) as unknown as Adapter
  }
  // Vacuumed as well as analysed: 10,000 fresh rows would otherwise bring autovacuum (and the first
  // reads' hint-bit writes) into whichever run comes next, one library's or the other's.
  await pool.query('VACUUM (ANALYZE) users, sessions, accounts')
  return {
    adapter,
    async close() {
      await pool.end()
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`DROP SCHEMA ${schema} CASCADE`)
      await c.end()
    },
  }
}
