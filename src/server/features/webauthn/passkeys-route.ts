/**
 * Passkey management for the signed-in user, under basePath:
 * - GET /passkeys → `{ passkeys: PasskeyInfo[] }`, the user's authenticators (of every WebAuthn provider).
 * - POST /passkeys with `{ csrfToken, action: 'remove', id }` → `{ passkeys }` left after removing
 *   one with the adapter's `deleteAuthenticator` (and unlinking its `webauthn` account when the
 *   adapter can). Removing the last passkey is refused unless another way to sign in remains.
 */
import type { AdapterAuthenticator } from '../../../core/types.js'
import { stringField } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { requireFresh } from '../../kernel/fresh.js'
import { managedAdapter, readAction, requireOwner, type SignedIn } from '../../kernel/manage.js'
import { json, type Reply } from '../../kernel/respond.js'
import { otherWayToSignIn } from '../../sign-in/ways.js'
import { WebAuthnRefusal, withReason } from './errors.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'

export function getPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const { user } = await requireOwner(ctx)
    const adapter = managedAdapter(ctx, ['listAuthenticatorsByUserId'], 'Listing passkeys')
    return json(ctx, { passkeys: (await adapter.listAuthenticatorsByUserId(user.id)).map(toPasskeyInfo) })
  })
}

export function postPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const { body } = await readAction(ctx, ['remove'])
    const id = stringField(body, 'id')
    if (!id) throw new WebAuthnRefusal('invalid', 'Expected "id", the credential id of the passkey to remove', { type: 'InvalidRequest' })
    const me = await requireOwner(ctx)
    // A copied old cookie must not strip the owner's passkeys.
    requireFresh(ctx, me.signedInAt)
    const remaining = await removePasskey(ctx, me, id)
    return json(ctx, { passkeys: remaining.map(toPasskeyInfo) })
  })
}

async function removePasskey(ctx: Context, { user, signInProvider }: SignedIn, id: string): Promise<AdapterAuthenticator[]> {
  const adapter = managedAdapter(ctx, ['getAuthenticator', 'listAuthenticatorsByUserId', 'deleteAuthenticator'], 'Removing a passkey')
  const target = await adapter.getAuthenticator(id)
  // Someone else's credential reads as not found: its existence is none of this user's business.
  if (!target || target.userId !== user.id) {
    throw new WebAuthnRefusal('unknown-credential', 'Expected the id of one of your passkeys; none of yours has this id', { status: 404 })
  }
  const others = (await adapter.listAuthenticatorsByUserId(user.id)).filter((a) => a.credentialID !== id)
  if (!others.length && !(await otherWayToSignIn(ctx, user, { credentialID: id }, signInProvider))) {
    throw new WebAuthnRefusal('last-credential', 'This is your last passkey and no other way to sign in remains; add another passkey, link an account, or prove your address with an email link, first', { status: 409 })
  }
  await removePasskeyRecords(ctx, target)
  return others
}
