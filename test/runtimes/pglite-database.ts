/**
 * The PGlite variant's database: PGlite in memory, migrated, behind latchkey's SQL adapter. Bundled
 * apart from app.ts (as pglite-database.js, with `@electric-sql/pglite` left external so each runtime
 * loads it, its WASM and its data file from node_modules), and imported only by the hosts that run
 * it (serve-node.ts, and the Bun and Deno servers in runtimes.ts), on the first `/pglite` request.
 */
import { PGlite } from '@electric-sql/pglite'
import { fromPGlite, migrate, PostgresAdapter } from 'latchkey/adapters/postgres'
import type { Adapter } from '../../src/core/types.js'

export async function openPGlite(): Promise<Adapter> {
  const db = fromPGlite(await PGlite.create())
  await migrate(db)
  return PostgresAdapter(db)
}
