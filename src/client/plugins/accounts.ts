/** `accounts()`: the signed-in user's linked accounts (never tokens). */
import type { ClientPlugin } from '../plugin.js'
import type { AccountInfo } from '../types.js'
import type { SignInOptions, SignInResult } from '../auth-client.js'
import { listed } from './listed.js'

/** `client.accounts`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface AccountsClient {
  list(): Promise<AccountInfo[]>
  link(provider: string, options?: SignInOptions): Promise<SignInResult | undefined>
  unlink(provider: string): Promise<AccountInfo[]>
  /**
   * What a provider, or an account of it, is here: `linkable` (OAuth, OIDC: linked with `link`,
   * unlinked with `unlink`), `passkey` (listed and removed through `passkey()`), or `other` (email:
   * linked by signing in with the address).
   */
  kindOf(of: { type: string }): 'linkable' | 'passkey' | 'other'
}

/** The plugin that adds `client.accounts`. */
export const accounts = (): ClientPlugin<'accounts', AccountsClient> => ({
  name: 'accounts',
  setup(kernel) {
    const { list, act } = listed<AccountInfo>(kernel, '/accounts')
    return {
      list,
      link: (provider, options) => kernel.client.signIn(provider, { ...options, link: true }),
      unlink: (provider) => act({ action: 'unlink', provider }),
      kindOf: ({ type }) => (type === 'oauth' || type === 'oidc' ? 'linkable' : type === 'webauthn' ? 'passkey' : 'other'),
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.accounts`: the signed-in user's linked accounts. `link` is a sign-in with that provider
     * while signed in: it navigates to the provider and back. Linking and unlinking need a recent
     * sign-in (`SessionNotFresh`: show `<latchkey-signin confirm>`, then retry); unlinking the last
     * way to sign in is refused (`LastSignInMethod`).
     */
    readonly accounts: AccountsClient
  }
}
