/**
 * The one error type every latchkey adapter throws for a broken rule, so the server (and a test)
 * can tell "this email is taken" from "the database is down" by `code` instead of by message.
 */
export type AdapterErrorCode =
  | 'DUPLICATE_EMAIL'
  | 'DUPLICATE_USER'
  | 'DUPLICATE_ACCOUNT'
  | 'DUPLICATE_SESSION'
  | 'DUPLICATE_VERIFICATION_TOKEN'
  | 'DUPLICATE_AUTHENTICATOR'
  | 'UNKNOWN_USER'
  | 'UNKNOWN_AUTHENTICATOR'
  | 'INVALID_INPUT'
  | 'MIGRATION_FAILED'
  | 'UNSUPPORTED_DATABASE'

export class AdapterError extends Error {
  override readonly name = 'AdapterError'
  readonly code: AdapterErrorCode

  constructor(code: AdapterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
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
