/** `phoneCodes()`: sign-in with a phone number and the code sent to it by SMS (the server's latchkey/plugins/phone). */
import type { ClientPlugin } from '../plugin.js'
import type { SignInResult } from '../auth-client.js'
import { providerId, signInWithCode } from './codes.js'

/** `client.phone`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface PhoneCodesClient {
  send(options: { phone: string; provider?: string }): Promise<void>
  verify(options: { phone: string; code: string; provider?: string; callbackUrl?: string }): Promise<SignInResult>
}

/** The plugin that adds `client.phone`. */
export const phoneCodes = (): ClientPlugin<'phone', PhoneCodesClient> => {
  const isPhone = (p: { type: string }) => p.type === 'phone'
  return {
    name: 'phone',
    // The number, then the code: drawn from the provider's own `form` and `code`.
    waysIn: [{ knows: isPhone, renderer: 'code' }],
    setup: ({ client }) => ({
      async send({ phone, provider }) {
        await signInWithCode(client, await providerId(client, provider, isPhone, 'phone'), { phone })
      },
      async verify({ phone, code, provider, callbackUrl }) {
        return signInWithCode(client, await providerId(client, provider, isPhone, 'phone'), { phone, code }, callbackUrl)
      },
    }),
  }
}

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.phone`: `send({ phone })` texts a code to the number (the same answer whether or not it
     * has an account); `verify({ phone, code })` signs this browser in with it. Refused with an
     * `AuthClientError`: `InvalidPhoneNumber`, `InvalidCode`, `CodeExpired`, `TooManyAttempts`, `RateLimited`.
     */
    readonly phone: PhoneCodesClient
  }
}
