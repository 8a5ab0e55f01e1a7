/** The last-way-to-sign-in rule, shared by passkey removal and account unlinking. */
import type { AdapterUser } from '../../core/types.js'
import type { Context } from '../kernel/context.js'
import { methodOf } from '../kernel/plugin.js'

/**
 * Whether the user could still sign in without the account or passkey named in `except`:
 * - an email link to their address, once that address is proven (an unproven one may not be
 *   theirs, and shedding the other ways would let such a user link other accounts: first-proof.ts);
 * - another OAuth, OIDC or email account with a provider still configured (when the adapter lists accounts);
 * - another passkey;
 * - a credentials provider still configured, when it made the session asking (`signInProvider`):
 *   `authorize` keeps its users outside latchkey, so only a sign-in it just accepted shows that
 *   it knows this user. An owner who signs in with a password can so remove what a thief added.
 * Anything the adapter cannot tell counts as no way (the safe side).
 */
export async function otherWayToSignIn(
  ctx: Context,
  user: AdapterUser,
  except: { provider?: string; providerAccountId?: string; credentialID?: string },
  signInProvider?: string,
): Promise<boolean> {
  const providers = ctx.config.providers
  for (const p of providers.values()) if (methodOf(ctx.config, p)?.keepsWayIn?.(ctx, p, user, signInProvider)) return true
  const adapter = ctx.config.adapter
  if (adapter?.listAccountsByUserId) {
    const accounts = await adapter.listAccountsByUserId(user.id)
    const isExcept = (a: { provider: string; providerAccountId: string }) => a.provider === except.provider && a.providerAccountId === except.providerAccountId
    if (accounts.some((a) => (a.type === 'oauth' || a.type === 'oidc' || a.type === 'email') && providers.has(a.provider) && !isExcept(a))) return true
  }
  if (adapter?.listAuthenticatorsByUserId) {
    if ((await adapter.listAuthenticatorsByUserId(user.id)).some((a) => a.credentialID !== except.credentialID)) return true
  }
  return false
}
