/** `migrateFrom.authjs`, checked once at start-up: a bad window or a missing secret stops the server, not a request. */
import type { AuthjsMigrationOptions } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'

export interface AuthjsMigration {
  /** Old sessions are read before this instant (ms), never after. */
  until: number
  /** Auth.js's secrets, to open its JWT cookies. */
  secrets: string[]
}

/** `ownSecrets`: latchkey's, the default (both libraries read AUTH_SECRET). */
export function resolveMigration(option: AuthjsMigrationOptions, ownSecrets: string[]): AuthjsMigration {
  if (!option || typeof option !== 'object') throw configurationError('latchkey: expected migrateFrom.authjs to be { secret?, until }')
  const until = option.until instanceof Date ? option.until.getTime() : typeof option.until === 'string' ? Date.parse(option.until) : NaN
  if (Number.isNaN(until)) {
    throw configurationError(
      `latchkey: migrateFrom.authjs.until must be a Date or an ISO 8601 instant (the switch-over day plus Auth.js's session lifetime), got ${JSON.stringify(option.until)}`,
    )
  }
  const given = option.secret === undefined ? ownSecrets : Array.isArray(option.secret) ? option.secret : [option.secret]
  const secrets = given.filter((s): s is string => typeof s === 'string' && s.length > 0)
  if (!secrets.length) throw configurationError("latchkey: migrateFrom.authjs.secret must be Auth.js's secret (its AUTH_SECRET or NEXTAUTH_SECRET), a non-empty string or list")
  return { until, secrets }
}
