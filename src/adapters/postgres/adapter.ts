/**
 * The SQL adapter: every contract method as one parameterised statement over a Queryable (but
 * replaceRecoveryCodes, a short transaction), so it runs the same on PGlite, a PostgreSQL server
 * or a PostgreSQL-compatible distributed engine.
 * Rules (unique email, unique account, cascade on deleteUser) live in the schema's constraints,
 * which makes them hold under concurrency; sql-errors.ts turns constraint errors into AdapterErrors,
 * store-outage.ts a database that stopped answering into `StoreUnavailable`.
 * The methods live by record kind: users.ts, accounts.ts, sessions.ts, verification-tokens.ts,
 * authenticators.ts, factors.ts, passwords.ts. Call `migrate` first (openEmbedded and openDatabase do).
 */
import type { RateLimitStore } from '../../core/rate-limit.js'
import type { CompleteAdapter } from '../types.js'
import { accountMethods } from './accounts.js'
import { authenticatorMethods } from './authenticators.js'
import { toQueryable } from './drivers/index.js'
import { factorMethods } from './factors.js'
import { passwordMethods } from './passwords.js'
import { postgresRateLimitStore } from './rate-limit-store.js'
import { withQueryListener, type QueryListener } from './query-hooks.js'
import { survivingOutages } from './store-outage.js'
import type { Queryable } from './queryable.js'
import { joinPluginMethods, schemaPlugins, type SchemaPlugin } from '../plugin-schema.js'
import { sessionMethods } from './sessions.js'
import { userMethods } from './users.js'
import { verificationCodeMethods } from './verification-codes.js'
import { verificationTokenMethods } from './verification-tokens.js'

export interface PostgresAdapterOptions {
  /** Called before every query the adapter sends (for benchmarks: queries per request). */
  onQuery?: QueryListener
  /** Plugins whose schema adds tables (`LatchkeyPlugin.schema`): their `sql(db)` methods are joined to the adapter. Migrate with the same list. */
  plugins?: readonly SchemaPlugin[]
}

export interface PostgresAdapter extends CompleteAdapter {
  /** The Queryable the adapter sends its statements through. */
  readonly db: Queryable
  /** The rate-limit store in this database, which `Latchkey` takes by default: servers sharing it share their counts. */
  rateLimitStore(): RateLimitStore
  /** One `SELECT 1`: resolves while the database answers, else throws `StoreUnavailable` (GET /health/ready). */
  ping(): Promise<void>
}

export function PostgresAdapter(driverOrQueryable: unknown, options: PostgresAdapterOptions = {}): PostgresAdapter {
  const base = toQueryable(driverOrQueryable)
  // Outermost, so a read sent again after a lost connection is a query the listener counts.
  const db = survivingOutages(options.onQuery ? withQueryListener(base, options.onQuery) : base)
  const plugins = schemaPlugins(options.plugins, 'PostgresAdapter')

  async function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await db.query<T>(sql, params)).rows
  }

  const adapter: PostgresAdapter = {
    db,
    rateLimitStore: () => postgresRateLimitStore(db),
    ping: async () => {
      await db.query('SELECT 1', [])
    },
    ...userMethods(rows),
    ...accountMethods(rows),
    ...sessionMethods(rows, plugins.flatMap(({ id, schema }) => (schema.sessionRead ? [{ id, sql: schema.sessionRead.sql }] : []))),
    ...verificationTokenMethods(rows),
    ...verificationCodeMethods(rows),
    ...authenticatorMethods(rows),
    ...factorMethods(rows, db),
    ...passwordMethods(rows),
  }
  return joinPluginMethods(adapter, plugins, (schema) => schema.sql(db), 'PostgresAdapter')
}
