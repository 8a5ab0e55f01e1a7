/**
 * Brings the schema up to date. Idempotent, and safe when several servers start at once: all of
 * it runs in one transaction that first takes an advisory lock, so a second migrator waits, then
 * finds nothing to do. Where an engine has no advisory locks, the version table's primary key
 * makes the loser's transaction fail, and it retries and finds nothing to do.
 */
import { AdapterError } from '../errors.js'
import { connectionError } from './connect-errors.js'
import { toQueryable } from './drivers/index.js'
import { errorCode } from './sql-errors.js'
import type { Queryable } from './queryable.js'
import { migratePlugins, type PluginMigrationApplied } from './plugin-migrations.js'
import { schemaPlugins, type PluginSchema, type SchemaPlugin } from '../plugin-schema.js'
import { createVersionTable, LATEST_VERSION, migrations, VERSION_TABLE, type Migration } from './schema.js'

export interface MigrationResult {
  /** The schema version found. 0 for an empty database. */
  from: number
  /** The schema version now. */
  to: number
  /** Migrations this call applied (empty when the schema was already current). */
  applied: Array<Pick<Migration, 'version' | 'name'>>
  /** Given plugins: their migrations this call applied, by plugin id (empty when each was current). */
  plugins?: PluginMigrationApplied[]
}

/** The advisory lock's key: the eight ASCII bytes of "latchkey" read as one bigint. */
const LOCK_KEY = '7809651199139603833'

/** Conflicts a concurrent migrator can cause: serialization failure, unique violation, duplicate table/object. */
const RETRYABLE = new Set(['40001', '40P01', '23505', '42P07', '42710'])
const ATTEMPTS = 5

export interface MigrateOptions {
  /** The database's URL (its password hidden) or folder: named when it cannot be reached or entered. */
  location?: string
  /** Plugins whose schema adds tables (`LatchkeyPlugin.schema`): their migrations run in the same transaction, after latchkey's. */
  plugins?: readonly SchemaPlugin[]
}

/**
 * A database that cannot be reached or entered fails with `ConnectionFailed`, saying what failed
 * and the fix; any other failure with `MigrationFailed`.
 */
export async function migrate(driverOrQueryable: unknown, options: MigrateOptions = {}): Promise<MigrationResult> {
  const db = toQueryable(driverOrQueryable)
  const plugins = schemaPlugins(options.plugins, 'migrate')
  if (!db.transaction) {
    throw new AdapterError(
      'MigrationFailed',
      'migrate: expected a queryable with transaction(fn) (a pg Pool, postgres.js sql or PGlite give one), got one without it',
    )
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => migrateInTransaction(tx, plugins, options.plugins !== undefined))
    } catch (error) {
      if (attempt < ATTEMPTS && retryable(error)) continue
      if (error instanceof AdapterError) throw error
      const unreachable = connectionError(error, options.location ?? 'the configured address')
      if (unreachable) throw unreachable
      throw new AdapterError('MigrationFailed', `migrate: the schema could not be brought to version ${LATEST_VERSION}: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }
}

function retryable(error: unknown): boolean {
  const code = errorCode(error)
  return !!code && RETRYABLE.has(code)
}

async function migrateInTransaction(tx: Queryable, plugins: Array<{ id: string; schema: PluginSchema }>, withPlugins: boolean): Promise<MigrationResult> {
  await lock(tx)
  await tx.query(createVersionTable, [])
  const { rows } = await tx.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${VERSION_TABLE}`, [])
  const from = Number(rows[0]?.version ?? 0)
  if (from > LATEST_VERSION) {
    throw new AdapterError(
      'MigrationFailed',
      `migrate: the database is at schema version ${from}, newer than this latchkey knows (${LATEST_VERSION}); upgrade latchkey`,
    )
  }
  const applied: MigrationResult['applied'] = []
  for (const migration of migrations) {
    if (migration.version <= from) continue
    // The version row goes first: a concurrent migrator without a lock conflicts here, before any DDL.
    await tx.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES ($1::integer, $2::text)`, [migration.version, migration.name])
    for (const statement of migration.statements) await tx.query(statement, [])
    applied.push({ version: migration.version, name: migration.name })
  }
  const result: MigrationResult = { from, to: Math.max(from, LATEST_VERSION), applied }
  if (withPlugins) result.plugins = await migratePlugins(tx, plugins, retryable)
  return result
}

/**
 * Takes the transaction-scoped advisory lock, where the engine has one. Inside a savepoint, so an
 * engine without the function (an error aborts the whole transaction otherwise) just carries on.
 */
async function lock(tx: Queryable): Promise<void> {
  await tx.query('SAVEPOINT latchkey_migrate_lock', [])
  try {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [LOCK_KEY])
    await tx.query('RELEASE SAVEPOINT latchkey_migrate_lock', [])
  } catch (error) {
    if (errorCode(error) !== '42883') throw error // 42883: undefined_function
    await tx.query('ROLLBACK TO SAVEPOINT latchkey_migrate_lock', [])
  }
}

/** The schema version recorded in the database, or 0 when latchkey's tables are not there. */
export async function schemaVersion(driverOrQueryable: unknown): Promise<number> {
  const db = toQueryable(driverOrQueryable)
  const { rows } = await db.query<{ present: string | null }>(`SELECT to_regclass($1::text)::text AS present`, [VERSION_TABLE])
  if (!rows[0]?.present) return 0
  const result = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${VERSION_TABLE}`, [])
  return Number(result.rows[0]?.version ?? 0)
}
