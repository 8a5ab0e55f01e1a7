/**
 * The password's built-in pages. An emailed link's: a link does nothing by being opened (mail
 * scanners and previews open links), so the confirmation page has a button, the reset page a
 * new-password form. The sign-in page's links': the sign-up form and the forgot-password form.
 * Each posts with the page's CSRF token; the answer goes to the sign-in page with a notice, or,
 * refused, back to the form with the error (routes.ts).
 */
import { ensureCsrfToken } from '../../kernel/csrf.js'
import type { Context } from '../../kernel/context.js'
import { html, type Reply } from '../../kernel/respond.js'
import { pageWords, type PageWords } from '../../kernel/page-language.js'
import { errorParagraph, escapeHtml, page } from '../../kernel/page-html.js'
import type { ResolvedPassword } from './options.js'

/** The new-password field, within the provider's length rules. */
const newPasswordField = (words: PageWords, options: ResolvedPassword, label: 'password' | 'newPassword') =>
  `<label>${words.html(label)} <input type="password" name="password" autocomplete="new-password" minlength="${options.minLength}" maxlength="${options.maxLength * 4}" required></label>`

/**
 * GET /password/sign-up and /password/forgot: the forms the sign-in page links to, with the error
 * a refused post came back with (`?error=`, in words only when known) and a link back.
 */
export async function formPage(ctx: Context, purpose: 'sign-up' | 'forgot', options: ResolvedPassword): Promise<Reply> {
  const words = pageWords(ctx)
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(await ensureCsrfToken(ctx))}">`
  const action = escapeHtml(`${ctx.baseUrl}/password/${purpose}`)
  const email = `<label>${words.html('email')} <input type="email" name="email" autocomplete="username" required></label>`
  const back = `<p class="links"><a href="${escapeHtml(ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`)}">${words.html('backToSignIn')}</a></p>`
  const error = errorParagraph(ctx, words, ctx.url.searchParams.get('error'))
  if (purpose === 'sign-up') {
    const name = `<label>${words.html('nameOptional')} <input name="name" autocomplete="name" maxlength="200"></label>`
    const title = words.text('createAccount')
    return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1>${error}<form method="post" action="${action}">${hidden}${email}${newPasswordField(words, options, 'password')}${name}<button>${words.html('createTheAccount')}</button></form>${back}`))
  }
  const title = words.text('resetPassword')
  return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1>${error}<p>${words.html('resetPasswordLead')}</p><form method="post" action="${action}">${hidden}${email}<button>${words.html('sendResetLink')}</button></form>${back}`))
}

export async function linkPage(ctx: Context, purpose: 'verify' | 'reset', options: ResolvedPassword): Promise<Reply> {
  const query = new URL(ctx.request.url).searchParams
  const email = query.get('email') ?? ''
  const token = query.get('token') ?? ''
  const hidden =
    `<input type="hidden" name="csrfToken" value="${escapeHtml(await ensureCsrfToken(ctx))}">` +
    `<input type="hidden" name="email" value="${escapeHtml(email)}"><input type="hidden" name="token" value="${escapeHtml(token)}">`
  const action = escapeHtml(`${ctx.baseUrl}/password/${purpose}`)
  const words = pageWords(ctx)
  if (purpose === 'verify') {
    const title = words.text('confirmAddress')
    return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(email)}</p><form method="post" action="${action}">${hidden}<button>${words.html('confirmMyAddress')}</button></form>`))
  }
  const field = newPasswordField(words, options, 'newPassword')
  // A hidden username field tells password managers which account the new password is for.
  const username = `<input type="email" name="username" autocomplete="username" value="${escapeHtml(email)}" hidden>`
  const title = words.text('chooseNewPassword')
  return html(ctx, page(ctx, words, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(email)}</p><form method="post" action="${action}">${hidden}${username}${field}<button>${words.html('saveNewPassword')}</button></form>`))
}
