/**
 * A database that stopped answering while the app runs (a restart, a failover, a connection cut)
 * is an outage, not a broken rule: the adapter says `StoreUnavailable` (503 with Retry-After) and
 * the client tries again. Read from the driver's error code (a SQLSTATE, a Node socket code, a
 * postgres.js code), and from `pg`'s few messages that carry none. A read that meets one is sent
 * once more (the pool hands out a fresh connection); a write is not, since it may have landed.
 */
import { AdapterError } from '../errors.js'
import type { Queryable } from './queryable.js'
import { errorCode } from './sql-errors.js'

/** SQLSTATEs of a connection that ended or cannot start; class 08 (connection exception) is matched whole. */
const outageStates = new Set([
  '57P01', // admin_shutdown: a fast restart or an administrator ended the connection
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a write reached a replica not yet promoted, during a failover
])

/** Node's socket and name codes, and postgres.js's own. */
const outageCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])

/** `pg` says these in words only. */
const outageMessage = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/** Whether `error` means the database did not answer, rather than refused a statement. */
export function isStoreOutage(error: unknown): boolean {
  const code = errorCode(error)
  if (code !== undefined && (code.startsWith('08') || outageStates.has(code) || outageCodes.has(code))) return true
  if (error instanceof AggregateError && error.errors.some(isStoreOutage)) return true
  return error instanceof Error && code === undefined && outageMessage.test(error.message)
}

/** What the browser reads (the driver's own words stay in the cause, for the log). */
export function storeUnavailable(cause: unknown): AdapterError {
  return new AdapterError('StoreUnavailable', 'The database did not answer; try again in a few seconds', { cause })
}

/** A statement that only reads, so sending it again changes nothing. */
const readOnly = (sql: string) => /^\s*SELECT\b/i.test(sql) && !/\bFOR\s+(UPDATE|SHARE|NO\s+KEY|KEY)\b|pg_advisory/i.test(sql)

const outageOr = (error: unknown) => (isStoreOutage(error) ? storeUnavailable(error) : error)

/** `db`, with outages said as `StoreUnavailable` and a read that met one sent once more. */
export function survivingOutages(db: Queryable): Queryable {
  const surviving: Queryable = {
    query: <T>(sql: string, params: unknown[]) =>
      db.query<T>(sql, params).catch((error: unknown) => {
        if (!isStoreOutage(error) || !readOnly(sql)) throw outageOr(error)
        return db.query<T>(sql, params).catch((again: unknown) => {
          throw outageOr(again)
        })
      }),
  }
  if (db.transaction) {
    const transaction = db.transaction.bind(db)
    surviving.transaction = (fn) =>
      transaction(fn).catch((error: unknown) => {
        throw outageOr(error)
      })
  }
  if (db.end) surviving.end = db.end.bind(db)
  return surviving
}
