/**
 * Linked accounts of the signed-in user, under basePath (wire style as /passkeys):
 * - GET /accounts → `{ accounts: AccountInfo[] }`: provider id and name, type, and the address of
 *   an email account. Never tokens.
 * - POST /accounts with `{ csrfToken, action: 'unlink', provider }` → `{ accounts }` left after
 *   unlinking the user's OAuth/OIDC account with that provider. Unlinking the last way to sign in
 *   (no other account, no passkey, no proven address with an email provider) is refused.
 * Linking is a normal sign-in while signed in. Passkeys are removed at /passkeys.
 */
import type { AccountInfo, AdapterAccount, AdapterUser } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { readBody, stringField } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { json, type Reply } from '../../kernel/respond.js'
import { otherWayToSignIn } from '../../sign-in/ways.js'
import { signedIn, signedInUser, type SignedIn } from '../webauthn/user.js'
import { requireFresh } from '../../kernel/fresh.js'

export async function getAccounts(ctx: Context): Promise<Reply> {
  const user = await requireUser(ctx)
  const adapter = useAdapter(ctx.config, ['listAccountsByUserId'], 'linked accounts')
  return json(ctx, { accounts: (await adapter.listAccountsByUserId(user.id)).map((a) => infoOf(ctx, a)) })
}

export async function postAccounts(ctx: Context): Promise<Reply> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  await verifyCsrf(ctx, body.csrfToken)
  const action = stringField(body, 'action')
  if (action !== 'unlink') throw invalid(action ? 'Expected "action" to be unlink, got another value' : 'Expected "action" to be unlink, got none')
  const provider = stringField(body, 'provider')
  if (!provider) throw invalid('Expected "provider", the id of the provider whose account to unlink')
  const me = await signedIn(ctx)
  if (!me) throw signedOut()
  // A copied old cookie must not unlink the owner's accounts: unlinking needs a recent sign-in.
  requireFresh(ctx, me.signedInAt)
  const remaining = await unlink(ctx, me, provider)
  return json(ctx, { accounts: remaining.map((a) => infoOf(ctx, a)) })
}

async function unlink(ctx: Context, { user, signInProvider }: SignedIn, provider: string): Promise<AdapterAccount[]> {
  const adapter = useAdapter(ctx.config, ['listAccountsByUserId', 'unlinkAccount'], 'unlinking an account')
  const accounts = await adapter.listAccountsByUserId(user.id)
  // Only the user's own accounts are found: another user's reads as not found.
  const target = accounts.find((a) => a.provider === provider && (a.type === 'oauth' || a.type === 'oidc'))
  if (!target) {
    throw new AuthError('InvalidRequest', 'Expected the id of a provider you have an OAuth account with; you have none with this one', { status: 404 })
  }
  if (!(await otherWayToSignIn(ctx, user, target, signInProvider))) {
    throw new AuthError('LastSignInMethod', 'This is your last way to sign in; link another account, add a passkey, or prove your address with an email link first', { status: 409 })
  }
  await adapter.unlinkAccount({ provider: target.provider, providerAccountId: target.providerAccountId })
  return accounts.filter((a) => a !== target)
}

function infoOf(ctx: Context, account: AdapterAccount): AccountInfo {
  const info: AccountInfo = { provider: account.provider, name: ctx.config.providers.get(account.provider)?.name ?? account.provider, type: account.type }
  if (account.type === 'email') info.email = account.providerAccountId
  return info
}

async function requireUser(ctx: Context): Promise<AdapterUser> {
  const user = await signedInUser(ctx)
  if (!user) throw signedOut()
  return user
}

function signedOut(): AuthError {
  return new AuthError('AccessDenied', 'Expected a signed-in user; sign in first', { status: 401 })
}

function invalid(message: string): AuthError {
  return new AuthError('InvalidRequest', message)
}
