/**
 * Input checks shared by the adapters. The server should never send a malformed record, but an
 * adapter is also a public API, and a bad value caught here gives a message naming the method,
 * the field, what was expected and what arrived, instead of a driver error or silent corruption.
 */
import { AdapterError, describeValue } from './errors.js'

export function requireString(method: string, field: string, value: unknown): string {
  if (typeof value === 'string' && value.length > 0) return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a non-empty string, got ${describeValue(value)}`)
}

export function requireDate(method: string, field: string, value: unknown): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a valid Date, got ${describeValue(value)}`)
}

export function requireDateOrNull(method: string, field: string, value: unknown): Date | null {
  return value === null ? null : requireDate(method, field, value)
}

export function requireStringOrNull(method: string, field: string, value: unknown): string | null {
  if (value === null || typeof value === 'string') return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a string or null, got ${describeValue(value)}`)
}

/** WebAuthn signature counters are unsigned 32-bit integers. */
export function requireCounter(method: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return value
  throw new AdapterError(
    'InvalidInput',
    `${method}: expected counter to be an integer from 0 to 4294967295, got ${typeof value === 'number' ? value : describeValue(value)}`,
  )
}

export function requireBoolean(method: string, field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a boolean, got ${describeValue(value)}`)
}

/** Known numeric account fields: a finite number, or absent. */
export function requireNumberOrAbsent(method: string, field: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number' && Number.isFinite(value)) return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a finite number, got ${describeValue(value)}`)
}

export interface TokenFilter {
  identifier?: string
  expiredBefore?: Date
  limit?: number
}

/** deleteVerificationTokens' filter: an identifier or a date (never "everything"), and a whole limit >= 1. */
export function requireTokenFilter(method: string, filter: unknown): TokenFilter {
  const { identifier, expiredBefore, limit } = (filter ?? {}) as Record<string, unknown>
  if (identifier === undefined && expiredBefore === undefined) {
    throw new AdapterError('InvalidInput', `${method}: expected identifier or expiredBefore; refusing to delete every token`)
  }
  return {
    identifier: identifier === undefined ? undefined : requireString(method, 'identifier', identifier),
    expiredBefore: expiredBefore === undefined ? undefined : requireDate(method, 'expiredBefore', expiredBefore),
    limit: requireLimit(method, limit),
  }
}

/** deleteVerificationCodes' filter: a date (never "everything"), and a whole limit >= 1. */
export function requireExpiredFilter(method: string, filter: unknown): { expiredBefore: Date; limit?: number } {
  const { expiredBefore, limit } = (filter ?? {}) as Record<string, unknown>
  if (expiredBefore === undefined) throw new AdapterError('InvalidInput', `${method}: expected expiredBefore; refusing to delete every code`)
  return { expiredBefore: requireDate(method, 'expiredBefore', expiredBefore), limit: requireLimit(method, limit) }
}

function requireLimit(method: string, limit: unknown): number | undefined {
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
    throw new AdapterError('InvalidInput', `${method}: expected limit to be a whole number >= 1, got ${typeof limit === 'number' ? limit : describeValue(limit)}`)
  }
  return limit as number | undefined
}

/** A session's `amr`: an array of words (no spaces: the SQL adapter keeps them space-separated). */
export function requireAmr(method: string, value: unknown): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && /^[\w.-]+$/.test(v))) return value
  throw new AdapterError('InvalidInput', `${method}: expected amr to be an array of words, got ${describeValue(value)}`)
}
