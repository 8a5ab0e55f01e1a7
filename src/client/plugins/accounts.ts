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
