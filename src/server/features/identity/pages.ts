/**
 * The pages of the email change's link. Opening the link changes nothing (mail scanners and
 * previews open links): signed in, its page names the account and the new address and has a
 * button that posts the link with the page's CSRF token; signed out, it says to sign in as the
 * account that asked, with a link to the sign-in page that comes back here. The post answers a
 * page too: the address is changed, or why not.
 */
import type { AuthError } from '../../../core/errors.js'
import { ensureCsrfToken } from '../../kernel/csrf.js'
import type { Context } from '../../kernel/context.js'
import { errorText, escapeHtml, page } from '../../kernel/page-html.js'
import { pageWords } from '../../kernel/page-language.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { html, type Reply } from '../../kernel/respond.js'
import type { SignedIn } from '../../kernel/manage.js'

/** GET /identity/email?email=&token=&callbackUrl=: the link's page. */
export async function linkPage(ctx: Context, me: SignedIn | null): Promise<Reply> {
  const words = pageWords(ctx)
  const query = ctx.url.searchParams
  const email = query.get('email') ?? ''
  const title = words.text('changeAddressHeading')
  if (!me) {
    const signIn = new URL(ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`, ctx.origin)
    signIn.searchParams.set('callbackUrl', ctx.url.href)
    return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p>${words.html('changeAddressSignIn')}</p><p class="links"><a href="${escapeHtml(signIn.href)}">${words.html('signIn')}</a></p>`))
  }
  const hidden = [['csrfToken', await ensureCsrfToken(ctx)], ['email', email], ['token', query.get('token') ?? ''], ['callbackUrl', query.get('callbackUrl') ?? '']]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('')
  const lead = words.html('changeAddressLead', { email, who: me.user.email ?? '' }, { email: `<strong>${escapeHtml(email)}</strong>`, who: `<strong>${escapeHtml(me.user.email ?? '')}</strong>` })
  return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p>${lead}</p><form method="post" action="${escapeHtml(`${ctx.baseUrl}/identity/email`)}">${hidden}<button>${words.html('useThisAddress')}</button></form>`))
}

/** The post's answer, posted from the page: the new address, and the way back to the app. */
export async function changedPage(ctx: Context, email: string, back: string | undefined): Promise<Reply> {
  const words = pageWords(ctx)
  const title = words.text('changeAddressHeading')
  const link = `<p class="links"><a href="${escapeHtml(await resolveCallbackUrl(ctx, back))}">${words.html('continue')}</a></p>`
  return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p class="notice" role="status">${words.html('addressChanged', { email })}</p>${link}`))
}

/** Why the address was not changed, in words; the code only escaped in an attribute. */
export async function refusedPage(ctx: Context, error: AuthError, back: string | undefined): Promise<Reply> {
  const words = pageWords(ctx)
  const title = words.text('addressNotChanged')
  const why =
    error.code === 'EmailChangeLinkInvalid' ? words.html('emailChangeLinkInvalid') : error.code === 'AccessDenied' ? words.html('changeAddressSignIn') : errorText(ctx, words, error.code)
  const link = `<p class="links"><a href="${escapeHtml(await resolveCallbackUrl(ctx, back))}">${words.html('continue')}</a></p>`
  return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p class="error" role="alert" data-error="${escapeHtml(error.code)}">${why}</p>${link}`), error.status)
}
