/**
 * One-time email codes, as every adapter keeps them: one code per identifier, its hash, its expiry
 * and the attempts made at it. What an attempt finds is decided here, once, for every adapter.
 */
import type { VerificationCode, VerificationCodeAttempt } from '../core/types.js'
import { AdapterError, describeValue } from './errors.js'
import { requireDate, requireString } from './validate.js'

/** A stored code after this attempt was counted. */
export interface CountedCode {
  code: string
  expires: Date
  attempts: number
}

/** createVerificationCode's record, checked. */
export function requireCode(method: string, record: VerificationCode): VerificationCode {
  return {
    identifier: requireString(method, 'identifier', record?.identifier),
    code: requireString(method, 'code', record?.code),
    expires: requireDate(method, 'expires', record?.expires),
  }
}

/** useVerificationCode's attempt, checked: an identifier, at least one candidate hash, a whole maxAttempts >= 1. */
export function requireAttempt(method: string, attempt: unknown): { identifier: string; codes: string[]; maxAttempts: number } {
  const { identifier, codes, maxAttempts } = (attempt ?? {}) as Record<string, unknown>
  if (!Array.isArray(codes) || codes.length === 0 || !codes.every((c) => typeof c === 'string' && c)) {
    throw new AdapterError('InvalidInput', `${method}: expected codes to be a non-empty array of strings, got ${describeValue(codes)}`)
  }
  if (!(typeof maxAttempts === 'number' && Number.isInteger(maxAttempts) && maxAttempts >= 1)) {
    throw new AdapterError('InvalidInput', `${method}: expected maxAttempts to be a whole number >= 1, got ${describeValue(maxAttempts)}`)
  }
  return { identifier: requireString(method, 'identifier', identifier), codes: codes as string[], maxAttempts }
}

/**
 * What a counted attempt found. `use` deletes the code only if it is still the one counted (false:
 * another attempt used it first), so of concurrent right answers exactly one is `used`.
 */
export async function judgeAttempt(counted: CountedCode | undefined, codes: string[], maxAttempts: number, use: () => Promise<boolean> | boolean): Promise<VerificationCodeAttempt> {
  if (!counted) return { result: 'none' }
  if (counted.attempts > maxAttempts) return { result: 'exhausted' }
  if (codes.includes(counted.code)) return (await use()) ? { result: 'used', expires: counted.expires } : { result: 'none' }
  return { result: 'wrong', attemptsLeft: maxAttempts - counted.attempts }
}
