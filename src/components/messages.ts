import { english, say, type Key, type Words } from './words.js'

/** The passkey client's reasons (PasskeyError.reason) that need their own words. */
const reasons: Record<string, Key> = {
  'not-allowed': 'passkeyNotAllowed',
  'unknown-credential': 'passkeyUnknown',
  unsupported: 'passkeyUnsupported',
  security: 'passkeySecurity',
  verification: 'passkeyRefused',
  counter: 'passkeyRefused',
  challenge: 'passkeyExpired',
  'already-registered': 'passkeyExists',
  'last-credential': 'LastSignInMethod',
}

/**
 * The words for an error's code, or for its `reason` (a PasskeyError's) where that says more.
 * `lengths`: a password provider's rules, where known, so a refused length names the limit.
 * `words`: the language and catalogue to say it in (an element's); default English. `values`
 * fill the message's `{names}` (the element's field label, say).
 */
export function errorMessage(code: string, reason?: string, lengths?: { minLength: number; maxLength: number }, words: Words = english, values?: Record<string, unknown>): string {
  if (lengths && code === 'PasswordTooShort') return say(words, 'useAtLeast', { count: lengths.minLength })
  if (lengths && code === 'PasswordTooLong') return say(words, 'useAtMost', { count: lengths.maxLength })
  // Error codes are the catalogue's capitalised keys.
  const key = (reason && reasons[reason]) || (/^[A-Z]\w*$/.test(code) && code in words.messages ? (code as Key) : 'unknownError')
  return say(words, key, values)
}
