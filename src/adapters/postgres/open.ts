/**
 * Ready-to-use adapters: connect, migrate, return. The drivers are optional peer dependencies, so
 * each is imported only when chosen; an app on PostgreSQL never loads PGlite's WASM and the reverse.
 */
import { mkdir } from 'node:fs/promises'
import { AdapterError, describeValue } from '../errors.js'
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
  /** Closes the database (PGlite flushes to disk; a pg pool openDatabase made ends its connections). */
  close(): Promise<void>
  /** The `pg` pool the statements go through, where the database is a PostgreSQL server: its counts, its events. */
  readonly pool?: PgPool
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

/** The `pg` Pool `openDatabase` made or was given: for its counts and events (`pool.on('connect', ...)`). */
export interface PgPool extends PgPoolLike {
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown
  listenerCount(event: 'error'): number
  /** Connections open, idle, and queries waiting for one. */
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
  readonly options?: { connectionString?: string }
}

/**
 * The sizes of the pool `openDatabase` makes (`pg`'s Pool options of the same names). Every
 * process has its own pool: processes × `max` stays under PostgreSQL's `max_connections`, less
 * what other clients need (docs/deployment.md).
 */
export interface PoolOptions {
  /** Connections this process holds at most. Default 10 (pg's). */
  max?: number
  /** An unused connection closes after this many ms. Default 10000 (pg's). */
  idleTimeoutMillis?: number
  /**
   * How long a query waits for a connection, in ms, before it fails (and the request answers 503
   * `StoreUnavailable`). Default 5000; pg's own default, 0, waits for ever while a database is unreachable.
   */
  connectionTimeoutMillis?: number
  /** A connection closes once this many seconds old, so connections spread again after a failover. Default 0 (never, pg's). */
  maxLifetimeSeconds?: number
}

const poolDefaults = { connectionTimeoutMillis: 5000 } satisfies PoolOptions

export interface OpenDatabaseOptions extends PostgresAdapterOptions, FromPgOptions {
  /** The embedded database's folder, used when there is no URL. */
  dir?: string
  /**
   * The PostgreSQL pool: its sizes (`{ max, idleTimeoutMillis, connectionTimeoutMillis }`), or a
   * `pg.Pool` the app made itself (then the URL is not read, and `close()` leaves the pool open:
   * the app ends it).
   */
  pool?: PoolOptions | PgPool
}

function isPool(value: PoolOptions | PgPool | undefined): value is PgPool {
  return typeof (value as PgPool | undefined)?.connect === 'function'
}

function checkPoolOptions(options: PoolOptions): PoolOptions {
  const known = new Set(['max', 'idleTimeoutMillis', 'connectionTimeoutMillis', 'maxLifetimeSeconds'])
  for (const [name, value] of Object.entries(options)) {
    if (!known.has(name)) throw new AdapterError('InvalidInput', `openDatabase: pool.${name} is not an option latchkey passes on; expected ${[...known].join(', ')}, or a pg.Pool of your own`)
    const least = name === 'max' ? 1 : 0
    if (value !== undefined && !(Number.isInteger(value) && value >= least)) {
      throw new AdapterError('InvalidInput', `openDatabase: expected pool.${name} to be a whole number >= ${least}, got ${typeof value === 'number' ? value : describeValue(value)}`)
    }
  }
  return options
}

/**
 * An idle connection that breaks (PostgreSQL restarted, a failover, the connection ended by an
 * administrator) is an 'error' event on the pool; unheard, node ends the process. The pool has
 * already dropped that connection and opens a new one for the next query: say so and go on. The
 * warning names the error's code, never the URL (its password). A pool of the app's own that has
 * a listener already keeps only its own.
 */
function keepAlive(pool: PgPool): void {
  if (pool.listenerCount('error') > 0) return
  pool.on('error', (error) => console.warn(`latchkey: a PostgreSQL connection was lost while idle (${error.code ?? error.message}); the next query opens a new one`))
}

export type OpenDatabaseArguments = OpenDatabaseOptions & {
  /** A postgres:// URL; omitted: DATABASE_URL; empty: the embedded database. */
  url?: string
}

/**
 * A PostgreSQL server (through `pg`) for a postgres:// URL, else the embedded PGlite.
 * An omitted URL (undefined) means the DATABASE_URL environment variable; an empty string means
 * the embedded database whatever the environment says. The URL may also come in the options
 * (`openDatabase({ url, pool: { max: 20 } })`), and a `pg.Pool` of the app's own as `pool`.
 */
export async function openDatabase(url?: string, options?: OpenDatabaseOptions): Promise<OpenedAdapter>
export async function openDatabase(options: OpenDatabaseArguments): Promise<OpenedAdapter>
export async function openDatabase(first?: string | OpenDatabaseArguments, second: OpenDatabaseOptions = {}): Promise<OpenedAdapter> {
  const args: OpenDatabaseArguments = typeof first === 'object' && first !== null ? first : { ...second, url: first }
  const { url = process.env.DATABASE_URL, dir, prepare, pool: poolOption, ...adapterOptions } = args
  if (isPool(poolOption)) {
    keepAlive(poolOption)
    const connectionString = poolOption.options?.connectionString
    const location = connectionString ? redactUrl(connectionString) : "the app's pg pool"
    // The app's pool is the app's to end: close() leaves it open.
    const { end: _end, ...db } = fromPg(poolOption, { prepare })
    return Object.assign(await ready(db, location, adapterOptions), { pool: poolOption })
  }
  if (url === undefined || url.trim() === '') return openEmbedded(dir, adapterOptions)
  if (!isPostgresUrl(url)) {
    throw new AdapterError(
      'UnsupportedDatabase',
      `openDatabase: expected a postgres:// or postgresql:// URL (or none, for the embedded database), got ${redactUrl(url)}`,
    )
  }
  const sizes = checkPoolOptions({ ...poolDefaults, ...poolOption })
  const pg = await loadOptional<{ Pool: new (config: PoolOptions & { connectionString: string }) => PgPool }>('pg', 'A PostgreSQL URL')
  const pool = new pg.Pool({ ...sizes, connectionString: url })
  keepAlive(pool)
  return Object.assign(await ready(fromPg(pool, { prepare }), redactUrl(url), adapterOptions), { pool })
}
