/** Email addresses as latchkey keys its records by, for every feature that takes one. */
import { AuthError } from '../../core/errors.js'
import { stringField, type Body } from './body.js'

/**
 * What no address takes here: spaces, control characters and RFC 5322's specials, `:` among them.
 * Every other one-time record's key has a `:` (`password-reset:…`, `mfa-tries:…`, `dbsc:…`) or no
 * `@` (`webauthn-upgrade`), so no address can name another purpose's record.
 */
const notInAddress = /[\s\x00-\x1f\x7f,;:<>"()[\]\\]/

/** Whether `value` is an address as latchkey keys records by: one `@` with something either side, no special character. */
export function isAddress(value: string): boolean {
  const at = value.indexOf('@')
  return value.length <= 254 && at > 0 && at === value.lastIndexOf('@') && at < value.length - 1 && !notInAddress.test(value)
}

/** Lower-cases and trims the address, and refuses anything not shaped like one. */
export function normalizeEmail(input: string): string {
  const value = input.trim().toLowerCase()
  if (!isAddress(value)) throw new AuthError('EmailSignin', 'Expected an email address like name@example.com')
  return value
}

/** The address in `body[field]`, normalized; 400 `InvalidRequest` with `expected` where it is none. */
export function addressField(body: Body, field: string, expected: string): string {
  const raw = stringField(body, field)
  try {
    if (!raw) throw new Error()
    return normalizeEmail(raw)
  } catch {
    throw new AuthError('InvalidRequest', expected)
  }
}
