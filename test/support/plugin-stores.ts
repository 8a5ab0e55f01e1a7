/**
 * The stores an HTTP test file runs on, with the plugins' schemas: memory always, and latchkey's
 * SQL adapter on PostgreSQL where DATABASE_URL is set, one isolated schema per file (each test makes
 * users, addresses and records of its own), dropped by `closers`.
 */
import type { LatchkeyPlugin } from 'latchkey/server'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { createIsolatedSchema } from '../adapters/isolated-schema.js'
import { needsService } from './needs-service.js'

export function pluginStores<S>(plugins: LatchkeyPlugin[], what: string, file: string, closers: Array<() => Promise<unknown>>): Record<string, () => Promise<S>> {
  const stores: Record<string, () => Promise<S>> = { memory: async () => MemoryAdapter({ plugins }) as unknown as S }
  const url = needsService('DATABASE_URL', `${what} on PostgreSQL (memory ran)`, 'postgres://postgres@127.0.0.1:5432/test', file)
  if (url) {
    let shared: Promise<S> | undefined
    stores.PostgreSQL = () =>
      (shared ??= (async () => {
        const schema = await createIsolatedSchema(url)
        closers.push(() => schema.drop())
        const pool = schema.pgPool(4)
        await migrate(PostgresAdapter(pool).db, { plugins })
        return PostgresAdapter(pool, { plugins }) as unknown as S
      })())
  }
  return stores
}
