/**
 * What a password must be, as NIST SP 800-63B says: long enough, not absurdly long, any Unicode
 * (normalized, so the same password typed on two keyboards is the same), and no composition rules.
 * Length counts code points after normalization: an emoji is one character, as the user sees it.
 */
import { AuthError } from '../../../core/errors.js'
import { DEFAULT_PASSWORD_LENGTHS, type PasswordLengths } from './lengths.js'

export { DEFAULT_PASSWORD_LENGTHS, resolvePasswordLengths, type PasswordLengths } from './lengths.js'

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
