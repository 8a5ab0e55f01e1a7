/** `emailCodes()`: the code from a sign-in email, typed in this browser. */
import type { ClientPlugin } from '../plugin.js'
import type { SignInResult } from '../auth-client.js'
import { providerId, signInWithCode } from './codes.js'

/** `client.email`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface EmailCodesClient {
  verify(options: { email: string; code: string; provider?: string; callbackUrl?: string }): Promise<SignInResult>
}

/** The plugin that adds `client.email`. */
export const emailCodes = (): ClientPlugin<'email', EmailCodesClient> => ({
  name: 'email',
  setup: ({ client }) => ({
    async verify({ email, code, provider, callbackUrl }) {
      const id = await providerId(client, provider, (p) => p.type === 'email', 'email')
      return signInWithCode(client, id, { email, code }, callbackUrl)
    },
  }),
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.email`: after `signIn('email', { email, redirect: false })`, the code from that email
     * signs this browser in, wherever the email was read. Refused with an `AuthClientError` whose
     * code is `InvalidCode`, `CodeExpired` (ask again), `TooManyAttempts` (ask again) or `RateLimited`.
     */
    readonly email: EmailCodesClient
  }
}
