/**
 * Passkey management for the signed-in user, under basePath:
 * - GET /passkeys → `{ passkeys: PasskeyInfo[] }`, the user's authenticators (of every WebAuthn provider).
 * - POST /passkeys with `{ csrfToken, action: 'remove', id }` → `{ passkeys }` left after removing
 *   one with the adapter's `deleteAuthenticator` (and unlinking its `webauthn` account when the
 *   adapter can). Removing the last passkey is refused unless another way to sign in remains.
 */
import type { AdapterAuthenticator, AdapterUser } from '../../core/types.js'
import { readBody, stringField } from '../body.js'
import { useAdapter } from '../adapter-methods.js'
import type { Context } from '../context.js'
import { verifyCsrf } from '../csrf.js'
import { json, type Reply } from '../respond.js'
import { WebAuthnRefusal, withReason } from './errors.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'
import { requireSignedIn } from './user.js'
import { otherWayToSignIn } from '../sign-in-ways.js'

export function getPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const user = await requireSignedIn(ctx)
    const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], 'passkey management')
    return json(ctx, { passkeys: (await adapter.listAuthenticatorsByUserId(user.id)).map(toPasskeyInfo) })
  })
}

export function postPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    await verifyCsrf(ctx, body.csrfToken)
    const action = stringField(body, 'action')
    if (action !== 'remove') throw new WebAuthnRefusal('invalid', action ? 'Expected "action" to be remove, got another value' : 'Expected "action" to be remove, got none', { type: 'InvalidRequest' })
    const id = stringField(body, 'id')
    if (!id) throw new WebAuthnRefusal('invalid', 'Expected "id", the credential id of the passkey to remove', { type: 'InvalidRequest' })
    const user = await requireSignedIn(ctx)
    const remaining = await removePasskey(ctx, user, id)
    return json(ctx, { passkeys: remaining.map(toPasskeyInfo) })
  })
}

async function removePasskey(ctx: Context, user: AdapterUser, id: string): Promise<AdapterAuthenticator[]> {
  const adapter = useAdapter(ctx.config, ['getAuthenticator', 'listAuthenticatorsByUserId', 'deleteAuthenticator'], 'removing a passkey')
  const target = await adapter.getAuthenticator(id)
  // Someone else's credential reads as not found: its existence is none of this user's business.
  if (!target || target.userId !== user.id) {
    throw new WebAuthnRefusal('unknown-credential', 'Expected the id of one of your passkeys; none of yours has this id', { status: 404 })
  }
  const others = (await adapter.listAuthenticatorsByUserId(user.id)).filter((a) => a.credentialID !== id)
  if (!others.length && !(await otherWayToSignIn(ctx, user, { credentialID: id }))) {
    throw new WebAuthnRefusal('last-credential', 'This is your last passkey and no other way to sign in remains; add another passkey, link an account, or prove your address with an email link, first', { status: 409 })
  }
  await removePasskeyRecords(ctx, target)
  return others
}
