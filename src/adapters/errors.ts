/**
 * The one error type every latchkey adapter throws for a broken rule, so the server (and a test)
 * can tell "this email is taken" from "the database is down" by `code` instead of by message. An
 * `AuthError` like every other failure; the browser sees none of these codes (it reads
 * `Configuration`), the server log names them.
 */
import { AuthError, type AdapterErrorCode } from '../core/errors.js'

export type { AdapterErrorCode }

export class AdapterError extends AuthError {
  declare readonly code: AdapterErrorCode

  constructor(code: AdapterErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, { cause: options?.cause, status: 500 })
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
