/** GET /signout shows the confirmation page; POST /signout ends the session. */
import { readRedirectingBody, stringField } from '../kernel/body.js'
import type { Context } from '../kernel/context.js'
import { ensureCsrfToken, verifyCsrf } from '../kernel/csrf.js'
import { pageWords } from '../kernel/page-language.js'
import { signOutFormTargets } from './form-action.js'
import { signOutPage } from './page-html.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'
import { html, redirect, type Reply } from '../kernel/respond.js'
import { destroySession } from '../kernel/session.js'

export async function getSignOutPage(ctx: Context): Promise<Reply> {
  if (ctx.config.pages.signOut) return redirect(ctx, ctx.config.pages.signOut)
  return html(ctx, signOutPage(ctx, pageWords(ctx), await ensureCsrfToken(ctx), `${ctx.baseUrl}/signout`), 200, signOutFormTargets(ctx))
}

export async function postSignOut(ctx: Context): Promise<Reply> {
  const body = await readRedirectingBody(ctx)
  await verifyCsrf(ctx, body.csrfToken)
  const target = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl') ?? ctx.origin)
  const ended = await destroySession(ctx)
  await ctx.config.events.signOut?.({ session: ended.record, token: ended.token })
  return redirect(ctx, target)
}
