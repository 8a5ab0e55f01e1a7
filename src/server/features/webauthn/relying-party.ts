/** Who the browser signs for: the relying party of a WebAuthn provider for this request. */
import type { RelyingParty, WebAuthnConfig } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'

/**
 * Each field defaults from the app's origin (`AuthConfig.origin`, else the request URL): the RP ID is
 * its host name, the origin is the origin itself, the name is the host name. The provider's
 * `relyingParty` overrides any of them, e.g. an RP ID of a parent domain shared by several apps.
 */
export function relyingParty(ctx: Context, provider: WebAuthnConfig): RelyingParty {
  const origin = new URL(ctx.origin)
  const given = provider.relyingParty ?? {}
  return {
    id: given.id ?? origin.hostname,
    name: given.name ?? origin.hostname,
    origin: given.origin ?? origin.origin,
  }
}

/**
 * What a ceremony's response must show: our challenge, our RP ID, and user verification if required;
 * its origin is ours or one of the provider's `relatedOrigins` (no other is accepted).
 */
export function expectations(ctx: Context, provider: WebAuthnConfig, challenge: string) {
  const rp = relyingParty(ctx, provider)
  return {
    expectedChallenge: challenge,
    expectedOrigin: provider.relatedOrigins?.length ? [rp.origin, ...provider.relatedOrigins] : rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: provider.userVerification === 'required',
  }
}
