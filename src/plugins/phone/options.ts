/** What `Phone()` takes, and the provider it makes: the types the plugin's other files read. */
import type { LatchkeyPlugin } from 'latchkey/server'
import type { CountryCode } from './number.js'

export interface PhoneOptions {
  /**
   * Sends `text` to `to` (E.164, `+14155550123`) through the app's SMS service. Called after the
   * answer to the request (the answer never waits for it, nor tells whether it worked); a failure
   * is logged through `logger.error`.
   */
  sendSms: (to: string, text: string) => Promise<void>
  /** Default `phone`: the URLs are /signin/<id> and /callback/<id>, the account's provider is <id>. */
  id?: string
  /** Default `Phone`. */
  name?: string
  /** The country of a number typed without its country code (ISO 3166 alpha-2, `US`); none: every number needs its `+`. */
  defaultCountry?: CountryCode
  /**
   * The message, given the code, the app's host and the code's lifetime in minutes. The default
   * ends with the line `@<host> #<code>` (the WebOTP form, so a phone's browser can offer the code
   * to this site alone).
   */
  text?: (code: string, details: { host: string; minutes: number }) => string
  /** What a form shows (GET /providers `form`, the built-in page), in the app's language. */
  words?: Partial<PhoneWords>
}

export interface PhoneWords {
  /** The number field's label. */
  phone: string
  /** The code field's label. */
  code: string
  /** The first step's button. */
  send: string
  /** Said once a code is on its way; `{phone}` is the number as typed. */
  sent: string
}

export const englishWords: PhoneWords = {
  phone: 'Phone number',
  code: 'Code from the text message',
  send: 'Text me a code',
  sent: 'We sent a code to {phone}.',
}

export const defaultText = (code: string, { host, minutes }: { host: string; minutes: number }) =>
  `${code} is your sign-in code for ${host}. It works for ${minutes} minutes.\n\n@${host} #${code}`

/** The resolved provider: a type alias, not an interface, so it fits `providers` (whose plugin providers take any field). */
export type PhoneProvider = {
  id: string
  name: string
  type: 'phone'
  sendSms: PhoneOptions['sendSms']
  defaultCountry?: CountryCode
  text: NonNullable<PhoneOptions['text']>
  words: PhoneWords
  plugin: LatchkeyPlugin
}

