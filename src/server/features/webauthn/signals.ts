/**
 * What the passkey client needs for the WebAuthn Signal API, for the signed-in user only: per RP ID
 * of the configured WebAuthn providers, the user handle registration gave (the user id's UTF-8
 * bytes), every credential id the server accepts, and the name and display name registration used.
 * The whole list goes to every RP ID: a credential of another RP ID names nothing there, while a
 * missing one would have the passkey manager hide a key that still works.
 */
import type { AdapterAuthenticator, AdapterUser, PasskeySignals } from '../../../core/types.js'
import { toBase64Url } from '../../../core/encoding.js'
import type { Context } from '../../kernel/context.js'
import { relyingParty } from './relying-party.js'

const encoder = new TextEncoder()

export function signalsFor(ctx: Context, user: AdapterUser, authenticators: AdapterAuthenticator[]): PasskeySignals[] {
  const rpIds = new Set<string>()
  for (const p of ctx.config.providers.values()) if (p.type === 'webauthn') rpIds.add(relyingParty(ctx, p).id)
  const userId = toBase64Url(encoder.encode(user.id))
  const allAcceptedCredentialIds = authenticators.map((a) => a.credentialID)
  return [...rpIds].map((rpId) => ({ rpId, userId, allAcceptedCredentialIds, name: user.email, displayName: user.name ?? user.email }))
}
