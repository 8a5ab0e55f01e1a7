/** The contract suite and the SQL checks against PGlite in memory: one instance for the whole file. */
import { PGlite } from '@electric-sql/pglite'
import { afterAll } from 'vitest'
import { runAdapterTests } from '../../src/adapter-test/index.js'
import { fromPGlite, migrate, PostgresAdapter, type Queryable } from '../../src/adapters/postgres/index.js'
import { runSqlChecks } from './sql-checks.js'
import { schemaPlugins } from './schema-plugins.js'

/** A plugin's tables and cases ride along: PGlite runs its migrations and methods as a server does. */
const plugins = schemaPlugins

let shared: Promise<Queryable> | undefined

/** Starts PGlite once (a cold start takes seconds) and migrates it; every suite here shares it. */
function database(): Promise<Queryable> {
  shared ??= (async () => {
    const db = fromPGlite(await PGlite.create())
    await migrate(db, { plugins })
    return db
  })()
  return shared
}

afterAll(async () => {
  if (shared) await (await shared).end?.()
})

runAdapterTests({ name: 'PostgresAdapter over PGlite', adapter: async () => PostgresAdapter(await database(), { plugins }), plugins })
runSqlChecks('PGlite', database)
