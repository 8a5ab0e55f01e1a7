/** GET /signin shows the sign-in page; POST /signin/:provider starts a sign-in. */
import { AuthError } from '../../core/errors.js'
import { readRedirectingBody, stringField } from '../body.js'
import { noteConfirm } from '../confirm.js'
import { checkLinkStart } from '../sign-in.js'
import { setCookie, type Context } from '../context.js'
import { ensureCsrfToken, verifyCsrf } from '../csrf.js'
import { emailIdentifier, sendEmailLink } from '../email.js'
import { signInWithCredentials } from '../credentials.js'
import { startOAuth } from '../oauth/start.js'
import { signInPage } from '../pages.js'
import { findProvider } from '../find-provider.js'
import { signInFormTargets } from '../form-action.js'
import { toAppProvider } from '../providers-list.js'
import { enforceRateLimit } from '../rate-limit/config.js'
import { resolveCallbackUrl } from '../redirect-url.js'
import { html, redirect, type Reply } from '../respond.js'

export async function getSignInPage(ctx: Context): Promise<Reply> {
  if (ctx.config.pages.signIn) return redirect(ctx, ctx.config.pages.signIn + ctx.url.search)
  const csrfToken = await ensureCsrfToken(ctx)
  const providers = [...ctx.config.providers.values()]
  const fields = Object.fromEntries(providers.filter((p) => p.type === 'credentials').map((p) => [p.id, (p as any).credentials ?? {}]))
  const callbackUrl = ctx.url.searchParams.get('callbackUrl') ?? undefined
  const page = signInPage(providers.map((p) => toAppProvider(ctx, p)), csrfToken, { callbackUrl, error: ctx.url.searchParams.get('error'), fields })
  return html(ctx, page, 200, signInFormTargets(ctx))
}

export async function postSignIn(ctx: Context, providerId: string | undefined): Promise<Reply> {
  const body = await readRedirectingBody(ctx)
  const provider = findProvider(ctx, providerId)
  await verifyCsrf(ctx, body.csrfToken)
  await noteConfirm(ctx, body, provider.type !== 'credentials')
  if (body.link === 'true' || body.link === true) await checkLinkStart(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'))
  setCookie(ctx, ctx.names.callbackUrl, callbackUrl)
  switch (provider.type) {
    case 'email': {
      // Counted by the address the link goes to, after the provider's own normalising.
      const identifier = emailIdentifier(provider, stringField(body, 'email'))
      await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', identifier, ctx.now)
      await sendEmailLink(ctx, provider, identifier, callbackUrl)
      return redirect(ctx, ctx.config.pages.verifyRequest ?? `${ctx.baseUrl}/verify-request?provider=${encodeURIComponent(provider.id)}&type=email`)
    }
    case 'credentials':
      await signInWithCredentials(ctx, provider, body)
      return redirect(ctx, callbackUrl)
    case 'oauth':
    case 'oidc':
      return redirect(ctx, await startOAuth(ctx, provider))
    default:
      throw new AuthError('UnknownAction', `Provider "${provider.id}" of type "${provider.type}" starts with GET /webauthn-options, not POST /signin`, { status: 400 })
  }
}
