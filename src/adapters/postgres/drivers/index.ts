/** Turns whatever the caller passed (a driver handle or a ready Queryable) into a Queryable. */
import { AdapterError, describeValue } from '../../errors.js'
import { isQueryable, type Queryable } from '../queryable.js'
import { fromPg, isPgPool } from './pg.js'
import { fromPGlite, isPGlite } from './pglite.js'
import { fromPostgresJs, isPostgresJs } from './postgres-js.js'

export { fromPg, type FromPgOptions, type PgPoolLike } from './pg.js'
export { fromPGlite, type PGliteDbLike } from './pglite.js'
export { fromPostgresJs, type PostgresJsSqlLike } from './postgres-js.js'

export function toQueryable(driverOrQueryable: unknown): Queryable {
  if (isPostgresJs(driverOrQueryable)) return fromPostgresJs(driverOrQueryable)
  if (isPgPool(driverOrQueryable)) return fromPg(driverOrQueryable)
  if (isPGlite(driverOrQueryable)) return fromPGlite(driverOrQueryable)
  if (isQueryable(driverOrQueryable)) return driverOrQueryable
  throw new AdapterError(
    'InvalidInput',
    `PostgresAdapter: expected a pg Pool, a postgres.js sql, a PGlite database or an object with query(sql, params), got ${describeValue(driverOrQueryable)}`,
  )
}
