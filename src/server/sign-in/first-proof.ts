/**
 * The first proof of a user's address. Signed out, anyone can register a passkey for an address
 * nobody has used yet, without proving they own it; that user starts with `emailVerified: null`.
 * Whoever first proves the address (an email link, or an OAuth sign-in linked by email) is its
 * owner, and must not inherit what was made before the proof: every passkey of the user (its
 * authenticator and `webauthn` account) and every session end here, then `emailVerified` is set.
 * The owner is told: `events.passkeysRemoved`, and `notice=passkeys-removed` on the redirect.
 * JWT sessions cannot be deleted: see unproven-session.ts.
 */
import type { AdapterUser } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import { useAdapter } from '../kernel/adapter-methods.js'
import type { Context } from '../kernel/context.js'
import { methodOf } from '../kernel/feature.js'

/** The notice a sign-in leaves for the redirect that ends it. */
export type SignInNotice = 'passkeys-removed'

const notices = new WeakMap<Context, SignInNotice>()

/** Marks the user's address as proven now; the first time, removes what was made before. */
export async function proveAddress(ctx: Context, user: AdapterUser): Promise<AdapterUser> {
  if (user.emailVerified) return user
  const adapter = useAdapter(ctx.config, ['updateUser'], 'proving an email address')
  if (passkeysOffered(ctx)) await removeUnproven(ctx, user)
  return adapter.updateUser({ id: user.id, emailVerified: new Date(ctx.now) })
}

/**
 * A signed-in user with a passkey and an unproven address may be someone's registration for another's
 * address: no other account links to it until the address is proven, or it would outlive the proof.
 */
export async function refuseLinkWhileUnproven(ctx: Context, user: AdapterUser): Promise<void> {
  if (user.emailVerified || !passkeysOffered(ctx)) return
  const passkeys = await useAdapter(ctx.config, ['listAuthenticatorsByUserId'], 'account linking').listAuthenticatorsByUserId(user.id)
  if (passkeys.length) {
    throw new AuthError('OAuthAccountNotLinked', 'Your email address is not proven yet: sign in with an email link first, then link this account', { status: 403 })
  }
}

/** Where the sign-in sends the browser, with `notice=<notice>` when it left one for the app to show. */
export function withSignInNotice(ctx: Context, target: string): string {
  const notice = notices.get(ctx)
  if (!notice) return target
  const url = new URL(target)
  url.searchParams.set('notice', notice)
  return url.href
}

/** A way to sign in makes users without anyone vouching for the address (passkeys); without one there is nothing to remove. */
export function passkeysOffered(ctx: Context): boolean {
  for (const p of ctx.config.providers.values()) if (methodOf(ctx.config, p)?.onAddressProven) return true
  return false
}

async function removeUnproven(ctx: Context, user: AdapterUser): Promise<void> {
  let removed = 0
  const hooks = new Set([...ctx.config.providers.values()].map((p) => methodOf(ctx.config, p)?.onAddressProven))
  for (const hook of hooks) if (hook) removed += (await hook(ctx, user)).removed
  if (ctx.config.session.strategy === 'database') {
    await useAdapter(ctx.config, ['deleteSessionsByUserId'], 'proving an address where passkeys can be registered').deleteSessionsByUserId(user.id)
  }
  if (removed) notices.set(ctx, 'passkeys-removed')
}
