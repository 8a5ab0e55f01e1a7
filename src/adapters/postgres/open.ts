/**
 * Ready-to-use adapters: connect, migrate, return. The drivers are optional peer dependencies, so
 * each is imported only when chosen; an app on PostgreSQL never loads PGlite's WASM and the reverse.
 */
import { mkdir } from 'node:fs/promises'
import { AdapterError } from '../errors.js'
import { PostgresAdapter, type PostgresAdapterOptions } from './adapter.js'
import { lockEmbeddedDir } from './embedded-lock.js'
import { fromPg, fromPGlite, type FromPgOptions, type PgPoolLike, type PGliteDbLike } from './drivers/index.js'
import { migrate, type MigrationResult } from './migrate.js'
import type { Queryable } from './queryable.js'

export const DEFAULT_EMBEDDED_DIR = '.latchkey/db'

export interface OpenedAdapter extends PostgresAdapter {
  /** What `migrate` did while opening. */
  readonly migration: MigrationResult
  /** Where the data lives: the folder, or the URL with its password hidden. */
  readonly location: string
  /** Closes the database (PGlite flushes to disk; a pg pool ends its connections). */
  close(): Promise<void>
}

async function loadOptional<T>(name: string, why: string): Promise<T> {
  try {
    const module = (await import(name)) as { default?: T } & T
    return (module.default ?? module) as T
  } catch (error) {
    throw new AdapterError('UnsupportedDatabase', `${why} needs the optional package "${name}"; install it with: npm install ${name}`, {
      cause: error,
    })
  }
}

/** Migrates, then hands out the adapter; `release` runs after the database closes (the embedded folder's lock). */
async function ready(db: Queryable, location: string, options: PostgresAdapterOptions, release = async () => {}): Promise<OpenedAdapter> {
  let migration: MigrationResult
  try {
    migration = await migrate(db, { location, plugins: options.plugins })
  } catch (error) {
    await db.end?.().catch(() => undefined)
    throw error
  }
  const adapter = PostgresAdapter(db, options)
  const close = async () => {
    try {
      await db.end?.()
    } finally {
      await release()
    }
  }
  return Object.assign(adapter, { migration, location, close })
}

/**
 * PGlite in a folder on disk: the data survives a restart. Creates the folder when missing. One
 * process at a time: a second opener (another process, or this one again) gets `DatabaseLocked`.
 */
export async function openEmbedded(dir: string = DEFAULT_EMBEDDED_DIR, options: PostgresAdapterOptions = {}): Promise<OpenedAdapter> {
  const { PGlite } = await loadOptional<{ PGlite: { create(dataDir: string): Promise<PGliteDbLike> } }>(
    '@electric-sql/pglite',
    'The embedded database',
  )
  await mkdir(dir, { recursive: true })
  const lock = await lockEmbeddedDir(dir)
  try {
    return await ready(fromPGlite(await PGlite.create(dir)), dir, options, lock.release)
  } catch (error) {
    await lock.release()
    throw error
  }
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url)
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'an unparsable URL'
  }
}

interface PoolEvents {
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown
}

export interface OpenDatabaseOptions extends PostgresAdapterOptions, FromPgOptions {
  /** The embedded database's folder, used when there is no URL. */
  dir?: string
}

/**
 * A PostgreSQL server (through `pg`) for a postgres:// URL, else the embedded PGlite.
 * An omitted URL (undefined) means the DATABASE_URL environment variable; an empty string means
 * the embedded database whatever the environment says.
 */
export async function openDatabase(url: string | undefined = process.env.DATABASE_URL, options: OpenDatabaseOptions = {}): Promise<OpenedAdapter> {
  const { dir, prepare, ...adapterOptions } = options
  if (url === undefined || url.trim() === '') return openEmbedded(dir, adapterOptions)
  if (!isPostgresUrl(url)) {
    throw new AdapterError(
      'UnsupportedDatabase',
      `openDatabase: expected a postgres:// or postgresql:// URL (or none, for the embedded database), got ${redactUrl(url)}`,
    )
  }
  const pg = await loadOptional<{ Pool: new (config: { connectionString: string }) => PgPoolLike & PoolEvents }>('pg', 'A PostgreSQL URL')
  const pool = new pg.Pool({ connectionString: url })
  // An idle connection that breaks (PostgreSQL restarted, a failover, the connection ended by an
  // administrator) is an 'error' event on the pool; unheard, node ends the process. The pool has
  // already dropped that connection and opens a new one for the next query: say so and go on.
  // The warning names the error's code, never the URL (its password).
  pool.on('error', (error) => console.warn(`latchkey: a PostgreSQL connection was lost while idle (${error.code ?? error.message}); the next query opens a new one`))
  return ready(fromPg(pool, { prepare }), redactUrl(url), adapterOptions)
}
