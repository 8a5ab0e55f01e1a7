/**
 * Gives each test run its own PostgreSQL schema (lk_test_<random>) so parallel runs against one
 * server never see each other's rows; the schema is dropped afterwards. Pools made here put the
 * schema first on every connection's search_path, which is all the adapter needs (its SQL uses
 * unqualified names).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import postgres from 'postgres'

export interface IsolatedSchema {
  name: string
  /** A new pg Pool whose connections use the schema. */
  pgPool(max?: number): pg.Pool
  /** A new postgres.js client whose connections use the schema. */
  postgresJs(max?: number): postgres.Sql
  /** Ends every pool made here and drops the schema with everything in it. */
  drop(): Promise<void>
}

export async function createIsolatedSchema(url: string): Promise<IsolatedSchema> {
  // Hex only: the name is safe to put in DDL, which cannot take it as a parameter.
  const name = `lk_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA ${name}`)
  } finally {
    await admin.end()
  }
  const closers: Array<() => Promise<void>> = []
  return {
    name,
    pgPool(max = 10) {
      const pool = new pg.Pool({ connectionString: url, max, options: `-c search_path=${name}` })
      closers.push(() => pool.end())
      return pool
    },
    postgresJs(max = 10) {
      const sql = postgres(url, { max, onnotice: () => {}, connection: { search_path: name } })
      closers.push(() => sql.end({ timeout: 5 }))
      return sql
    },
    async drop() {
      await Promise.allSettled(closers.map((close) => close()))
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      } finally {
        await client.end()
      }
    },
  }
}
