/**
 * The type test of the public API as the README uses it, under this repo's `strict` (so with
 * `strictFunctionTypes`). test/package/docs-types.test.ts compiles the README itself against the
 * packed package; this file keeps the same shapes in `tsc --noEmit -p .`.
 */
import { createAuthClient, type SignInResult } from '../../src/client/index.js'
import { passkey, type PasskeyInfo } from '../../src/client/passkey/index.js'
import type { AuthConfig, Provider } from '../../src/server/index.js'
import GitHub from '../../src/providers/github.js'
import Google from '../../src/providers/google.js'

// Built-in providers typed for their own profile are providers.
const providers: Provider[] = [GitHub({ clientId: 'id', clientSecret: 's' }), Google({ clientId: 'id', clientSecret: 's' })]
const config: AuthConfig = { providers: [GitHub({ clientId: 'id' }), Google({ clientId: 'id' })] }

export async function browser() {
  const auth = createAuthClient()
  // redirect: false always answers.
  const result: SignInResult = await auth.signIn('credentials', { username: 'u', password: 'p', redirect: false })
  const maybe: SignInResult | undefined = await auth.signIn('github')
  // @ts-expect-error a sign-in that may navigate away may answer nothing
  const sure: SignInResult = await auth.signIn('github')

  // The passkey plugin gives its whole surface.
  const withPasskeys = createAuthClient({ plugins: [passkey()] })
  await withPasskeys.passkey.register({ email: 'a@example.com' })
  const keys: PasskeyInfo[] = await withPasskeys.passkey.list()
  await withPasskeys.passkey.remove(keys[0]!.id)
  return [providers, config, result, maybe, sure]
}
