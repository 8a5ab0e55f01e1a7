/**
 * Linked accounts of the signed-in user, under basePath (wire style as /passkeys):
 * - GET /accounts → `{ accounts: AccountInfo[] }`: provider id and name, type, and the address of
 *   an email account. Never tokens.
 * - POST /accounts with `{ csrfToken, action: 'unlink', provider }` → `{ accounts }` left after
 *   unlinking the user's OAuth/OIDC account with that provider, on a fresh session. Unlinking the
 *   last way to sign in (sign-in/ways.ts) is refused.
 * Linking is a normal sign-in while signed in. Passkeys are removed at /passkeys.
 */
import type { AccountInfo, AdapterAccount } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { stringField } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { requireFresh } from '../../kernel/fresh.js'
import { managedAdapter, readAction, requireOwner, type SignedIn } from '../../kernel/manage.js'
import { json, type Reply } from '../../kernel/respond.js'
import { otherWayToSignIn } from '../../sign-in/ways.js'

export async function getAccounts(ctx: Context): Promise<Reply> {
  const { user } = await requireOwner(ctx)
  const adapter = managedAdapter(ctx, ['listAccountsByUserId'], 'Listing linked accounts')
  return json(ctx, { accounts: (await adapter.listAccountsByUserId(user.id)).map((a) => infoOf(ctx, a)) })
}

export async function postAccounts(ctx: Context): Promise<Reply> {
  const { body } = await readAction(ctx, ['unlink'])
  const provider = stringField(body, 'provider')
  if (!provider) throw new AuthError('InvalidRequest', 'Expected "provider", the id of the provider whose account to unlink')
  const me = await requireOwner(ctx)
  // A copied old cookie must not unlink the owner's accounts.
  requireFresh(ctx, me.signedInAt)
  const remaining = await unlink(ctx, me, provider)
  return json(ctx, { accounts: remaining.map((a) => infoOf(ctx, a)) })
}

async function unlink(ctx: Context, { user, signInProvider }: SignedIn, provider: string): Promise<AdapterAccount[]> {
  const adapter = managedAdapter(ctx, ['listAccountsByUserId', 'unlinkAccount'], 'Unlinking an account')
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
