/**
 * `passkey()`: the passkey plugin, the one passkey API (`client.passkey`). It runs the ceremony of
 * `client.signIn('passkey')`, and keeps the browser's passkey manager in step with the server
 * (signals.ts) on every change it sees: a list, a removal, a rename, a passkey sign-in, and a
 * session whose name or email changed (`client.update(...)` here, or in another tab).
 */
import type { ClientPlugin } from '../plugin.js'
import type { AppProvider, User } from '../../core/types.js'
import { createPasskeyClient, type PasskeyClient, type SignInOptions } from './client.js'

export interface PasskeyPluginOptions {
  /** The WebAuthn provider id `client.passkey` uses when a call names none. Default `passkey`. */
  provider?: string
}

const isWebAuthn = (p: AppProvider) => p.type === 'webauthn'

/** The plugin that adds `client.passkey` and signs in with WebAuthn providers. */
export const passkey = ({ provider }: PasskeyPluginOptions = {}): ClientPlugin<'passkey', PasskeyClient> => ({
  name: 'passkey',
  // Its button, and passkeys offered in the autofill of the name fields.
  waysIn: [{ knows: isWebAuthn, renderer: 'passkey' }],
  setup({ base, client, claimSignIn }) {
    const passkeys = createPasskeyClient({ basePath: base, getCsrfToken: client.getCsrfToken, provider })
    claimSignIn(isWebAuthn, (p, fields) => passkeys.signIn({ ...(fields as SignInOptions), provider: p.id }))
    // The user's names as the passkey manager last heard them: a change while signed in is told.
    let user: User | undefined
    client.onSessionChange((session) => {
      const next = session?.user
      if (user && next && (next.name !== user.name || next.email !== user.email)) void passkeys.list().catch(() => {})
      user = next
    })
    return passkeys
  },
})
