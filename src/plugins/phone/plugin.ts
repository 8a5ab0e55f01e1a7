/**
 * The phone plugin: what `Phone()` brings to an instance. It runs providers of type `phone`,
 * registers its error code and its two rate-limited actions, and checks its providers at start-up.
 */
import { configurationError, type LatchkeyPlugin, type ResolvedProvider } from 'latchkey/server'
import { invalidNumber, isSupportedCountry } from './number.js'
import type { PhoneProvider } from './options.js'
import { messages } from './messages.js'
import { phonePageForm } from './page.js'
import { sendCode, signInWithCode } from './sign-in.js'

const minutes = 60

/** A provider of this plugin's type: `Phone()` made it. */
const asPhone = (provider: ResolvedProvider) => provider as unknown as PhoneProvider

export const phonePlugin: LatchkeyPlugin = {
  id: 'phone',
  errorCodes: [invalidNumber],
  messages,
  rateLimits: {
    // Each one sends a text message, which costs the app money: SMS pumping sends many to
    // numbers that pay the sender, so a client gets fewer than an email sign-in's 20.
    phoneSms: {
      label: 'text messages',
      accountName: 'phone number',
      // Unlike an email, each text costs money, and pumping is at its cheapest while nothing counts.
      whenStoreFails: 'closed',
      rules: [
        { per: 'account', limit: 5, windowSeconds: 15 * minutes },
        { per: 'client', limit: 10, windowSeconds: 15 * minutes },
      ],
    },
    // Each one is a guess at a code; a code burns after 5 wrong ones.
    phoneCode: {
      label: 'phone code attempts',
      accountName: 'phone number',
      rules: [
        { per: 'account', limit: 30, windowSeconds: 15 * minutes },
        { per: 'client', limit: 30, windowSeconds: 15 * minutes },
      ],
    },
  },
  configure(_, resolved) {
    for (const provider of resolved.providers.values()) {
      if (provider.type !== ('phone' as string)) continue
      const phone = asPhone(provider)
      const named = `latchkey: phone provider "${phone.id}"`
      if (typeof phone.sendSms !== 'function') throw configurationError(`${named} needs sendSms: (to, text) => Promise<void>, the app's way to send a text message`)
      if (phone.defaultCountry !== undefined && !isSupportedCountry(phone.defaultCountry)) {
        throw configurationError(`${named}: defaultCountry must be a country code libphonenumber-js knows (ISO 3166 alpha-2, such as "US"), got ${JSON.stringify(phone.defaultCountry)}`)
      }
      // Codes and users live in the store: without one a code could not be checked, nor a user found again.
      if (!resolved.adapter) throw configurationError(`${named} needs an adapter, which keeps its codes and its users`)
    }
  },
  method: {
    types: ['phone'],
    // The code comes back in another request: "confirm it's you" travels in its cookie.
    leavesSite: true,
    start: (ctx, provider, body, callbackUrl) => sendCode(ctx, asPhone(provider), body, callbackUrl),
    callback: (ctx, provider, body) => signInWithCode(ctx, asPhone(provider), body),
    adapterMethods: () => ['createVerificationCode', 'useVerificationCode', 'getUser', 'getUserByEmail', 'getUserByAccount', 'createUser', 'updateUser', 'linkAccount'],
    describe(provider) {
      const { words } = asPhone(provider)
      return {
        code: { length: 6, numeric: true },
        form: {
          fields: [{ name: 'phone', label: words.phone, type: 'tel', autocomplete: 'tel' }],
          send: words.send,
          sent: words.sent,
          codeLabel: words.code,
        },
      }
    },
    pageForm: (provider, app, hidden, words) => phonePageForm(asPhone(provider), app, hidden, words.html('signInWith', { name: app.name })),
  },
}
