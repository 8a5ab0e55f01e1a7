/**
 * The first proof of a user's address. Signed out, anyone can register a passkey for an address
 * nobody has used yet, sign up with a password (and, with `requireVerifiedEmail: false`, sign in
 * with it), or sign in through a provider that does not check addresses; that user starts with
 * `emailVerified: null`. Whoever first proves the address (an email link or code, a password
 * confirmation, an OAuth sign-in linked by email) is its owner, and must not inherit what was
 * made before the proof: what each kind made (passkeys, a password: their `onAddressProven`), the
 * second factors (the gate's `onAddressProven`: apps, recovery codes, trusted devices), every
 * linked account but the one this proof came through, and every session end here, then
 * `emailVerified` is set. The owner is told: `events.passkeysRemoved`, and
 * `notice=passkeys-removed` on the redirect. JWT sessions cannot be deleted: see unproven-session.ts.
 */
import type { AdapterAccount, AdapterUser } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import { useAdapter } from '../kernel/adapter-methods.js'
import type { Context } from '../kernel/context.js'
import type { Notice } from '../kernel/page-html.js'
import { methodOf } from '../kernel/plugin.js'
import { requestKey } from '../kernel/state.js'

/** The notice a sign-in leaves for the redirect that ends it: one the sign-in page knows (kernel/page-html.ts). */
export type SignInNotice = Extract<Notice, 'passkeys-removed'>

const notices = requestKey<SignInNotice>('sign-in notice')

/** The account a proof came through: it stays linked. */
type Proving = Pick<AdapterAccount, 'provider' | 'providerAccountId'>

/**
 * Marks the user's address as proven now; the first time, removes what was made before, but the
 * account `proving` (the email account or the OAuth account whose provider vouched for the address).
 */
export async function proveAddress(ctx: Context, user: AdapterUser, proving?: Proving | null): Promise<AdapterUser> {
  if (user.emailVerified) return user
  const adapter = useAdapter(ctx.config, ['updateUser'], 'proving an email address')
  await removeUnproven(ctx, user, proving ?? undefined)
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
  const notice = notices.find(ctx)
  if (!notice) return target
  const url = new URL(target)
  url.searchParams.set('notice', notice)
  return url.href
}

/** A way to sign in makes users without anyone vouching for the address (passkeys, passwords): until the proof such a user links no other account. */
export function passkeysOffered(ctx: Context): boolean {
  for (const p of ctx.config.providers.values()) if (methodOf(ctx.config, p)?.onAddressProven) return true
  return false
}

async function removeUnproven(ctx: Context, user: AdapterUser, proving: Proving | undefined): Promise<void> {
  let removed = 0
  const hooks = new Set([...ctx.config.providers.values()].map((p) => methodOf(ctx.config, p)?.onAddressProven))
  for (const hook of hooks) if (hook) removed += (await hook(ctx, user)).removed
  await ctx.config.secondFactor?.onAddressProven(ctx, user)
  await unlinkAccounts(ctx, user, proving)
  // An adapter written for Auth.js may lack the method; passkeys and passwords, which need it, say so at start-up.
  const adapter = ctx.config.adapter
  if (ctx.config.session.strategy === 'database' && adapter?.deleteSessionsByUserId) await adapter.deleteSessionsByUserId(user.id)
  if (removed) notices.set(ctx, 'passkeys-removed')
}

/**
 * Every account linked before the proof (the kinds' hooks above removed their own) but the one
 * proving. An adapter written for Auth.js cannot list a user's accounts: there they stay (a limit,
 * docs/security.md).
 */
async function unlinkAccounts(ctx: Context, user: AdapterUser, proving: Proving | undefined): Promise<void> {
  const adapter = ctx.config.adapter
  if (!adapter?.listAccountsByUserId || !adapter.unlinkAccount) return
  for (const a of await adapter.listAccountsByUserId(user.id)) {
    if (a.provider === proving?.provider && a.providerAccountId === proving.providerAccountId) continue
    await adapter.unlinkAccount({ provider: a.provider, providerAccountId: a.providerAccountId })
  }
}
