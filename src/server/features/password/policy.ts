/**
 * What a password must be, as NIST SP 800-63B says: long enough, not absurdly long, any Unicode
 * (normalized, so the same password typed on two keyboards is the same), and no composition rules.
 * Length counts code points after normalization: an emoji is one character, as the user sees it.
 */
import { AuthError, configurationError } from '../../../core/errors.js'

export interface PasswordLengths {
  minLength: number
  maxLength: number
}

/** 800-63B: at least 8, and the service must accept at least 64. */
const LEAST_MIN = 8
const LEAST_MAX = 64
export const DEFAULT_PASSWORD_LENGTHS: Readonly<PasswordLengths> = Object.freeze({ minLength: 8, maxLength: 128 })

/** A lone surrogate half: encodes to U+FFFD, so two different inputs would hash alike. */
const loneSurrogate = /\p{Cs}/u

/** The password in Unicode NFKC, the form it is checked and hashed in. */
export function normalizePassword(raw: string): string {
  if (typeof raw !== 'string') throw new AuthError('InvalidRequest', `Expected the password as a string, got ${raw === null ? 'null' : typeof raw}`, { status: 400 })
  if (loneSurrogate.test(raw)) throw new AuthError('InvalidRequest', 'Expected the password as well-formed Unicode text, got a lone surrogate', { status: 400 })
  return raw.normalize('NFKC')
}

/**
 * The normalized password when it meets the length rules; otherwise `PasswordTooShort`,
 * `PasswordTooLong` or (not a string) `InvalidRequest`, each a 400.
 */
export function checkPasswordPolicy(password: unknown, { minLength = DEFAULT_PASSWORD_LENGTHS.minLength, maxLength = DEFAULT_PASSWORD_LENGTHS.maxLength }: Partial<PasswordLengths> = {}): string {
  const normalized = normalizePassword(password as string)
  let length = 0
  for (const _ of normalized) length++
  if (length < minLength) throw new AuthError('PasswordTooShort', `Expected a password of at least ${minLength} characters, got ${length}`, { status: 400 })
  if (length > maxLength) throw new AuthError('PasswordTooLong', `Expected a password of at most ${maxLength} characters, got ${length}`, { status: 400 })
  return normalized
}

/** The configured lengths, checked at start-up: a configuration error that says the fix. */
export function resolvePasswordLengths(min?: number, max?: number): PasswordLengths {
  const minLength = min ?? DEFAULT_PASSWORD_LENGTHS.minLength
  const maxLength = max ?? Math.max(DEFAULT_PASSWORD_LENGTHS.maxLength, minLength)
  if (!Number.isInteger(minLength) || minLength < LEAST_MIN) {
    throw configurationError(`password.minLength is ${String(min)}: NIST SP 800-63B asks for at least ${LEAST_MIN} characters. Set an integer of ${LEAST_MIN} or more, or leave it out for ${DEFAULT_PASSWORD_LENGTHS.minLength}.`)
  }
  if (!Number.isInteger(maxLength) || maxLength < LEAST_MAX) {
    throw configurationError(`password.maxLength is ${String(max)}: NIST SP 800-63B asks that passwords of at least ${LEAST_MAX} characters be accepted. Set an integer of ${LEAST_MAX} or more, or leave it out for ${DEFAULT_PASSWORD_LENGTHS.maxLength}.`)
  }
  if (minLength > maxLength) {
    throw configurationError(`password.minLength (${minLength}) is more than password.maxLength (${maxLength}): no password could pass. Lower minLength or raise maxLength.`)
  }
  return { minLength, maxLength }
}
