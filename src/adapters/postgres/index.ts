/** The SQL adapter over PostgreSQL, PGlite and PostgreSQL-compatible engines. */
export { PostgresAdapter, type PostgresAdapterOptions } from './adapter.js'
export { fromPg, fromPGlite, fromPostgresJs, toQueryable, type FromPgOptions, type PgPoolLike, type PGliteDbLike, type PostgresJsSqlLike } from './drivers/index.js'
export { migrate, schemaVersion, type MigrationResult } from './migrate.js'
export { openDatabase, openEmbedded, DEFAULT_EMBEDDED_DIR, type OpenDatabaseOptions, type OpenedAdapter } from './open.js'
export { countQueries, withQueryListener, type CountingQueryable, type QueryListener } from './query-hooks.js'
export type { Queryable, QueryResult } from './queryable.js'
export { LATEST_VERSION, migrations, VERSION_TABLE, type Migration } from './schema.js'
export { AdapterError, type AdapterErrorCode } from '../errors.js'
