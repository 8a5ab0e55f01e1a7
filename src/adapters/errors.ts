/**
 * The one error type every latchkey adapter throws for a broken rule, so the server (and a test)
 * can tell "this email is taken" from "the database is down" by `code` instead of by message. An
 * `AuthError` like every other failure; the browser sees none of the broken rules' codes (it
 * reads `Configuration`, 500), the server log names them. `StoreUnavailable` is the one it sees:
 * the database did not answer (a restart, a failover), 503 with `Retry-After`, try again.
 */
import { AuthError, storeRetryAfterSeconds, type AdapterErrorCode } from '../core/errors.js'

export type { AdapterErrorCode }

export class AdapterError extends AuthError {
  declare readonly code: AdapterErrorCode | 'StoreUnavailable'

  constructor(code: AdapterErrorCode | 'StoreUnavailable', message: string, options?: { cause?: unknown }) {
    const outage = code === 'StoreUnavailable'
    super(code, message, { cause: options?.cause, status: outage ? 503 : 500, retryAfter: outage ? storeRetryAfterSeconds : undefined })
    this.name = 'AdapterError'
  }
}

/** Describes a value for an error message without echoing secrets or huge payloads. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}
