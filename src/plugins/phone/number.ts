/**
 * Phone numbers as typed, read into one form: E.164 (`+14155550123`), the form a code is keyed
 * by, an account is stored under and an SMS is sent to. libphonenumber-js's small metadata checks
 * the country code and the number's length, not each carrier's ranges: a number just allocated
 * still works, and the code sent to it is the real proof.
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min'
import { AuthError, type Body } from 'latchkey/server'

/** Longer than any number written out with spaces and a country code: anything longer is not one. */
export const maxLength = 40

/** The error code of a number that is not one: registered by the plugin, so the browser may see it. */
export const invalidNumber = 'InvalidPhoneNumber'

export { isSupportedCountry, type CountryCode }

/**
 * The body's `phone` as E.164. A missing field, or one that is not a short string, is a malformed
 * request (InvalidRequest); a string that is no phone number is InvalidPhoneNumber. Both 400.
 */
export function readNumber(body: Body, defaultCountry: CountryCode | undefined): string {
  const given = body.phone
  if (typeof given !== 'string' || !given.trim()) {
    const got = given === undefined ? 'none' : Array.isArray(given) ? 'a list' : typeof given === 'string' ? 'an empty one' : given === null ? 'null' : typeof given
    throw new AuthError('InvalidRequest', `Expected "phone": one phone number in E.164 form (+14155550123) as a string, got ${got}`, { status: 400 })
  }
  if (given.length > maxLength) {
    throw new AuthError('InvalidRequest', `Expected "phone" to be a phone number of at most ${maxLength} characters, in E.164 form (+14155550123)`, { status: 400 })
  }
  const parsed = parsePhoneNumberFromString(given, defaultCountry)
  // An extension cannot receive a text message.
  if (!parsed || !parsed.isValid() || parsed.ext) {
    const local = defaultCountry ? `, or a number of ${defaultCountry} without its country code` : ''
    throw new AuthError(invalidNumber, `Expected "phone" to be a phone number in E.164 form (+14155550123)${local}`, { status: 400 })
  }
  return parsed.number
}
