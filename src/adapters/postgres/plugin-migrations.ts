/**
 * Plugins' migrations (`LatchkeyPlugin.schema.migrations`), applied by `migrate` in its own
 * transaction, under its lock, after latchkey's. Each plugin's versions are its own, recorded in
 * their own table by plugin id, so they never meet latchkey's numbers or another plugin's.
 */
import { AdapterError } from '../errors.js'
import type { PluginSchema } from '../plugin-schema.js'
import type { Queryable } from './queryable.js'

export const PLUGIN_SCHEMA_TABLE = 'latchkey_plugin_schema'

const createPluginTable = `CREATE TABLE IF NOT EXISTS ${PLUGIN_SCHEMA_TABLE} (
  plugin text NOT NULL,
  version integer NOT NULL,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (plugin, version)
)`

export interface PluginMigrationApplied {
  plugin: string
  version: number
  name: string
}

/** `retryable`: the errors `migrate` retries (a concurrent migrator's), passed through unwrapped. */
export async function migratePlugins(
  tx: Queryable,
  plugins: ReadonlyArray<{ id: string; schema: PluginSchema }>,
  retryable: (error: unknown) => boolean,
): Promise<PluginMigrationApplied[]> {
  const applied: PluginMigrationApplied[] = []
  if (!plugins.some((p) => p.schema.migrations.length)) return applied
  await tx.query(createPluginTable, [])
  for (const { id, schema } of plugins) {
    const { rows } = await tx.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${PLUGIN_SCHEMA_TABLE} WHERE plugin = $1::text`, [id])
    const from = Number(rows[0]?.version ?? 0)
    const latest = schema.migrations.length
    if (from > latest) {
      throw new AdapterError('MigrationFailed', `migrate: the database has plugin "${id}" at schema version ${from}, newer than this plugin knows (${latest}); upgrade the plugin`)
    }
    for (const migration of schema.migrations) {
      if (migration.version <= from) continue
      // The record first, as for latchkey's own: a migrator without the lock conflicts here, before any DDL.
      await tx.query(`INSERT INTO ${PLUGIN_SCHEMA_TABLE} (plugin, version, name) VALUES ($1::text, $2::integer, $3::text)`, [id, migration.version, migration.name])
      try {
        for (const statement of migration.statements) await tx.query(statement, [])
      } catch (error) {
        // A lost race is retried by `migrate`; anything else is the plugin's statement, named.
        if (retryable(error)) throw error
        throw new AdapterError('MigrationFailed', `migrate: plugin "${id}" migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error })
      }
      applied.push({ plugin: id, version: migration.version, name: migration.name })
    }
  }
  return applied
}
