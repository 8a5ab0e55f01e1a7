/**
 * Passkey management for the signed-in user, under basePath:
 * - GET /passkeys → `{ passkeys: PasskeyInfo[], signals }`, the user's authenticators (of every
 *   WebAuthn provider), and what the passkey client tells the browser's passkey manager (signals.ts).
 * - POST /passkeys with `{ csrfToken, action: 'remove', id }` → `{ passkeys, signals }` left after
 *   removing one with the adapter's `deleteAuthenticator` (and unlinking its `webauthn` account when
 *   the adapter can). Removing the last passkey is refused unless another way to sign in remains.
 * - POST /passkeys with `{ csrfToken, action: 'rename', id, name }` → `{ passkeys, signals }`, the
 *   name stored with the adapter's `updateAuthenticatorName` (an empty name clears it).
 */
import type { AdapterAuthenticator, AdapterUser } from '../../../core/types.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { requireFresh } from '../../kernel/fresh.js'
import { managedAdapter, readAction, requireOwner, type SignedIn } from '../../kernel/manage.js'
import { json, type Reply } from '../../kernel/respond.js'
import { otherWayToSignIn } from '../../sign-in/ways.js'
import { WebAuthnRefusal, withReason } from './errors.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'
import { signalsFor } from './signals.js'

/** Longest name kept, in characters. */
export const maxNameLength = 64

const answer = (ctx: Context, user: AdapterUser, list: AdapterAuthenticator[]) => json(ctx, { passkeys: list.map(toPasskeyInfo), signals: signalsFor(ctx, user, list) })

export function getPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const { user } = await requireOwner(ctx)
    const adapter = managedAdapter(ctx, ['listAuthenticatorsByUserId'], 'Listing passkeys')
    return answer(ctx, user, await adapter.listAuthenticatorsByUserId(user.id))
  })
}

export function postPasskeys(ctx: Context): Promise<Reply> {
  return withReason(ctx, async () => {
    const { body, action } = await readAction(ctx, ['remove', 'rename'])
    const id = stringField(body, 'id')
    if (!id) throw new WebAuthnRefusal('invalid', `Expected "id", the credential id of the passkey to ${action}`, { type: 'InvalidRequest' })
    if (action === 'rename') return renamePasskey(ctx, id, readName(body))
    const me = await requireOwner(ctx)
    // A copied old cookie must not strip the owner's passkeys.
    requireFresh(ctx, me.signedInAt)
    return answer(ctx, me.user, await removePasskey(ctx, me, id))
  })
}

/** One of the user's own passkeys, or 404 `unknown-credential`: someone else's existence is none of this user's business. */
async function ownPasskey(ctx: Context, user: AdapterUser, id: string, what: string): Promise<AdapterAuthenticator> {
  const target = await managedAdapter(ctx, ['getAuthenticator'], what).getAuthenticator(id)
  if (!target || target.userId !== user.id) {
    throw new WebAuthnRefusal('unknown-credential', 'Expected the id of one of your passkeys; none of yours has this id', { status: 404 })
  }
  return target
}

async function removePasskey(ctx: Context, { user, signInProvider }: SignedIn, id: string): Promise<AdapterAuthenticator[]> {
  const adapter = managedAdapter(ctx, ['getAuthenticator', 'listAuthenticatorsByUserId', 'deleteAuthenticator'], 'Removing a passkey')
  const target = await ownPasskey(ctx, user, id, 'Removing a passkey')
  const others = (await adapter.listAuthenticatorsByUserId(user.id)).filter((a) => a.credentialID !== id)
  if (!others.length && !(await otherWayToSignIn(ctx, user, { credentialID: id }, signInProvider))) {
    throw new WebAuthnRefusal('last-credential', 'This is your last passkey and no other way to sign in remains; add another passkey, link an account, or prove your address with an email link, first', { status: 409 })
  }
  await removePasskeyRecords(ctx, target)
  return others
}

/** The new name: trimmed, at most `maxNameLength` characters, no control characters; empty clears it. */
function readName(body: Body): string | null {
  const raw = body.name
  if (typeof raw !== 'string') throw new WebAuthnRefusal('invalid', 'Expected "name", the passkey\'s new name (a string; empty clears it)', { type: 'InvalidRequest' })
  const name = raw.trim()
  // eslint-disable-next-line no-control-regex
  if ([...name].length > maxNameLength || /[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    throw new WebAuthnRefusal('invalid', `Expected "name" to be at most ${maxNameLength} characters, without control characters`, { type: 'InvalidRequest' })
  }
  return name || null
}

async function renamePasskey(ctx: Context, id: string, name: string | null): Promise<Reply> {
  const { user } = await requireOwner(ctx)
  const adapter = managedAdapter(ctx, ['getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorName'], 'Renaming a passkey')
  await ownPasskey(ctx, user, id, 'Renaming a passkey')
  await adapter.updateAuthenticatorName(id, name)
  return answer(ctx, user, await adapter.listAuthenticatorsByUserId(user.id))
}
