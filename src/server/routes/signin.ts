/** GET /signin shows the sign-in page; POST /signin/:provider starts a sign-in with the provider's method. */
import { AuthError } from '../../core/errors.js'
import { readRedirectingBody, stringField } from '../kernel/body.js'
import { setCookie, type Context } from '../kernel/context.js'
import { ensureCsrfToken, verifyCsrf } from '../kernel/csrf.js'
import { methodOf } from '../kernel/plugin.js'
import { findProvider } from '../kernel/find-provider.js'
import { scriptHashes } from '../kernel/page-html.js'
import { pageWords } from '../kernel/page-language.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'
import { html, redirect, type Reply } from '../kernel/respond.js'
import { checkLinkStart } from '../sign-in/complete.js'
import { noteConfirm } from '../sign-in/confirm.js'
import { signInFormTargets } from './form-action.js'
import { buttonForm, hiddenInputs, signInPage } from './page-html.js'
import { toAppProvider } from './providers-list.js'

export async function getSignInPage(ctx: Context): Promise<Reply> {
  if (ctx.config.pages.signIn) return redirect(ctx, ctx.config.pages.signIn + ctx.url.search)
  const words = pageWords(ctx)
  const query = { error: ctx.url.searchParams.get('error'), notice: ctx.url.searchParams.get('notice') }
  const hidden = hiddenInputs(await ensureCsrfToken(ctx), ctx.url.searchParams.get('callbackUrl') ?? undefined)
  // A sign-in waiting for its second factor shows that step alone.
  const second = await ctx.config.secondFactor?.pageForm(ctx, hidden)
  if (second) return html(ctx, signInPage(ctx, words, [second], query), 200, signInFormTargets(ctx))
  const forms: string[] = []
  const scripts = new Set<string>()
  // Opened after a plugin's refusal the person goes on from here: that plugin's way first.
  const refusedBy = query.error ? ctx.config.plugins.find((p) => p.signInPageErrors?.includes(query.error!)) : undefined
  for (const provider of ctx.config.providers.values()) {
    const app = toAppProvider(ctx, provider)
    const method = methodOf(ctx.config, provider)
    const form = method?.pageForm ? method.pageForm(provider, app, hidden, words, ctx) : buttonForm(app, hidden, words)
    if (form === null) continue
    if (refusedBy?.method && refusedBy.method === method) forms.unshift(form)
    else forms.push(form)
    if (method?.pageScript) scripts.add(method.pageScript)
  }
  return html(ctx, signInPage(ctx, words, forms, query, [...scripts]), 200, signInFormTargets(ctx), await scriptHashes([...scripts]))
}

export async function postSignIn(ctx: Context, providerId: string | undefined): Promise<Reply> {
  const body = await readRedirectingBody(ctx)
  const provider = findProvider(ctx, providerId)
  const method = methodOf(ctx.config, provider)
  await verifyCsrf(ctx, body.csrfToken)
  await noteConfirm(ctx, body, method?.leavesSite ?? true)
  if (body.link === 'true' || body.link === true) await checkLinkStart(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'))
  setCookie(ctx, ctx.names.callbackUrl, callbackUrl)
  if (!method?.start) {
    throw new AuthError('UnknownAction', `Provider "${provider.id}" of type "${provider.type}" does not start with POST /signin (a passkey starts with GET /webauthn-options)`, { status: 400 })
  }
  return method.start(ctx, provider, body, callbackUrl)
}
