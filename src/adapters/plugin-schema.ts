/**
 * Plugins' schemas (`LatchkeyPlugin.schema`) as the adapters take them: checked once, and their
 * methods joined to an adapter, none of them taking a name the adapter or another plugin has.
 */
import { configurationError } from '../core/errors.js'
import type { PluginSchema, SchemaMethods } from '../server/kernel/types.js'

export type { PluginMigration, PluginSchema, SchemaMethods } from '../server/kernel/types.js'

/** What the adapters read of a plugin: a `LatchkeyPlugin` is one. */
export interface SchemaPlugin {
  id: string
  schema?: PluginSchema<any>
}

/** The plugins that have a schema, each checked: an id, and migrations numbered 1, 2, 3... with statements. */
export function schemaPlugins(plugins: readonly SchemaPlugin[] | undefined, where: string): Array<{ id: string; schema: PluginSchema }> {
  if (plugins === undefined) return []
  if (!Array.isArray(plugins)) throw configurationError(`${where}: expected plugins to be a list of plugins`)
  const seen = new Set<string>()
  const withSchema: Array<{ id: string; schema: PluginSchema }> = []
  for (const plugin of plugins) {
    const id = plugin?.id
    if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/i.test(id)) throw configurationError(`${where}: a plugin needs an id of letters, digits and "-", got ${JSON.stringify(id)}`)
    if (seen.has(id)) throw configurationError(`${where}: the plugin "${id}" is listed twice; list each plugin once`)
    seen.add(id)
    if (!plugin.schema) continue
    checkSchema(id, plugin.schema, where)
    withSchema.push({ id, schema: plugin.schema })
  }
  return withSchema
}

function checkSchema(id: string, schema: PluginSchema, where: string): void {
  const fail = (what: string) => configurationError(`${where}: plugin "${id}" schema ${what}`)
  if (typeof schema.sql !== 'function' || typeof schema.memory !== 'function') throw fail('needs sql(db) and memory(), each returning its methods')
  if (!Array.isArray(schema.migrations)) throw fail('needs migrations: a list, empty when it has no tables')
  const read = schema.sessionRead
  if (read !== undefined && (typeof read?.sql !== 'string' || !read.sql.trim() || typeof read.method !== 'string' || !read.method)) {
    throw fail('sessionRead needs sql (a SQL expression over s and u giving JSON) and method (the name of its method that answers the same)')
  }
  schema.migrations.forEach((m, i) => {
    // Numbered without gaps: a version is applied once and recorded; a reordered list is a bug.
    if (m?.version !== i + 1) throw fail(`migrations[${i}] must have version ${i + 1}, got ${JSON.stringify(m?.version)}`)
    if (typeof m.name !== 'string' || !m.name) throw fail(`migration ${m.version} needs a name`)
    if (!Array.isArray(m.statements) || m.statements.some((s: unknown) => typeof s !== 'string' || !s.trim())) throw fail(`migration ${m.version} needs statements: a list of SQL strings`)
  })
}

/**
 * Joins each plugin's methods (`make` picks `sql` or `memory`) to `adapter`. A name the adapter or
 * an earlier plugin has is refused: a plugin's method never replaces another's.
 */
export function joinPluginMethods<A extends object>(
  adapter: A,
  plugins: ReadonlyArray<{ id: string; schema: PluginSchema }>,
  make: (schema: PluginSchema) => SchemaMethods,
  where: string,
): A {
  const owners = new Map<string, string>()
  for (const { id, schema } of plugins) {
    const methods = make(schema)
    for (const [name, method] of Object.entries(methods ?? {})) {
      if (typeof method !== 'function') throw configurationError(`${where}: plugin "${id}" schema method ${name} is not a function`)
      if (name in adapter) {
        const owner = owners.get(name)
        throw configurationError(`${where}: plugin "${id}" adds the method ${name}, which ${owner ? `plugin "${owner}" adds` : 'the adapter has'} already; give the plugin's method another name`)
      }
      owners.set(name, id)
      ;(adapter as Record<string, unknown>)[name] = method
    }
  }
  return adapter
}
