/** One migrated PGlite for a test file (a cold start takes seconds), behind our SQL adapter. */
import { PGlite } from '@electric-sql/pglite'
import { afterAll } from 'vitest'
import { fromPGlite, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter } from '../../src/core/types.js'

let shared: Promise<{ adapter: Adapter; close: () => Promise<void> }> | undefined
// Registered when a file imports this module: hooks cannot be added from inside a test.
afterAll(async () => (await shared)?.close())

/** The file's PGlite adapter, started on first use and closed after the file's last test. */
export async function pgliteAdapter(): Promise<Adapter> {
  if (!shared) {
    shared = (async () => {
      const db = fromPGlite(await PGlite.create())
      await migrate(db)
      return { adapter: PostgresAdapter(db), close: async () => void (await db.end?.()) }
    })()
  }
  return (await shared).adapter
}
