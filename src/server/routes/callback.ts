/** GET or POST /callback/:provider: finishes a sign-in and sends the browser on. */
import { AuthError } from '../../core/errors.js'
import { readRedirectingBody } from '../body.js'
import { signInWithCredentials } from '../credentials.js'
import type { Context } from '../context.js'
import { verifyCsrf } from '../csrf.js'
import { noteConfirm } from '../confirm.js'
import { verifyEmailLink } from '../email.js'
import { findProvider } from '../find-provider.js'
import { withSignInNotice } from '../first-proof.js'
import { handleOAuthCallback } from '../oauth/callback.js'
import { resolveCallbackUrl } from '../redirect-url.js'
import { redirect, type Reply } from '../respond.js'
import { webauthnCallback } from '../webauthn/callback.js'

export async function callback(ctx: Context, providerId: string | undefined): Promise<Reply> {
  const body = await readRedirectingBody(ctx)
  const provider = findProvider(ctx, providerId)
  switch (provider.type) {
    case 'email':
      await verifyEmailLink(ctx, provider)
      return redirect(ctx, withSignInNotice(ctx, await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl') ?? undefined)))
    case 'credentials': {
      if (ctx.request.method !== 'POST') throw new AuthError('UnknownAction', 'Credentials sign-in takes POST', { status: 405 })
      await verifyCsrf(ctx, body.csrfToken)
      await noteConfirm(ctx, body, false)
      const target = await resolveCallbackUrl(ctx, typeof body.callbackUrl === 'string' ? body.callbackUrl : undefined)
      await signInWithCredentials(ctx, provider, body)
      return redirect(ctx, target)
    }
    case 'oauth':
    case 'oidc':
      // A response here means "go elsewhere first" (form_post bounce, redirect proxy forward).
      return (await handleOAuthCallback(ctx, provider, body)) ?? redirect(ctx, withSignInNotice(ctx, await resolveCallbackUrl(ctx, undefined)))
    case 'webauthn':
      await noteConfirm(ctx, body, false)
      return webauthnCallback(ctx, provider, body)
    default:
      throw new AuthError('UnknownAction', `Provider "${(provider as { id: string }).id}" has no callback here`, { status: 400 })
  }
}
