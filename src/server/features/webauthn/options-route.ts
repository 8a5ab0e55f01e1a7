/**
 * GET /webauthn-options/:provider?action=register|authenticate[&email=]
 * → `{ action, options }`, the options for `@simplewebauthn/browser`'s `startRegistration` or
 * `startAuthentication`; authentication also says whether the provider offers the autofill
 * (`enableConditionalUI`). Sets the challenge cookie. Without `action`, it is `authenticate`.
 */
import type { Context } from '../../kernel/context.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { json, type Reply } from '../../kernel/respond.js'
import { authenticationOptions } from './authenticate.js'
import { WebAuthnRefusal, withReason } from './errors.js'
import { webauthnProvider } from './provider.js'
import { registrationOptions } from './register.js'

export function getWebAuthnOptions(ctx: Context, providerId: string | undefined): Promise<Reply> {
  return withReason(ctx, async () => {
    const provider = webauthnProvider(ctx, providerId)
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'passkeyOptions', null, ctx.now)
    const action = ctx.url.searchParams.get('action') ?? 'authenticate'
    if (action === 'register') return json(ctx, { action, options: await registrationOptions(ctx, provider) })
    if (action === 'authenticate') {
      return json(ctx, { action, options: await authenticationOptions(ctx, provider), enableConditionalUI: provider.enableConditionalUI !== false })
    }
    throw new WebAuthnRefusal('invalid', 'Expected action=register or action=authenticate', { type: 'InvalidRequest' })
  })
}
