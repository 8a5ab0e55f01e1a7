/** The accounts plugin says which providers and accounts `<latchkey-accounts>` links, lists apart, or shows only. */
import { expect, it } from 'vitest'
import { accounts } from '../../src/client/plugins/accounts.js'
import type { ClientKernel } from '../../src/client/plugin.js'

it('kindOf: OAuth and OIDC are linkable, a passkey is the passkey list\'s, email is neither', () => {
  const { kindOf } = accounts().setup({ client: {}, base: 'http://x/auth' } as unknown as ClientKernel)
  expect(['oauth', 'oidc', 'webauthn', 'email', 'credentials', 'phone'].map((type) => kindOf({ type }))).toEqual(['linkable', 'linkable', 'passkey', 'other', 'other', 'other'])
})
