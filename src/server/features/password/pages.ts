/**
 * The pages an emailed link opens. A link does nothing by being opened (mail scanners and
 * previews open links): the confirmation page has a button, the reset page a new-password form,
 * and each posts with the page's CSRF token; the answer goes to the sign-in page with a notice.
 */
import { ensureCsrfToken } from '../../kernel/csrf.js'
import type { Context } from '../../kernel/context.js'
import { html, type Reply } from '../../kernel/respond.js'
import { pageWords } from '../../kernel/page-language.js'
import { escapeHtml, page } from '../../kernel/page-html.js'
import type { ResolvedPassword } from './options.js'

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
    return html(ctx, page(words, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(email)}</p><form method="post" action="${action}">${hidden}<button>${words.html('confirmMyAddress')}</button></form>`))
  }
  const field = `<label>${words.html('newPassword')} <input type="password" name="password" autocomplete="new-password" minlength="${options.minLength}" maxlength="${options.maxLength * 4}" required></label>`
  // A hidden username field tells password managers which account the new password is for.
  const username = `<input type="email" name="username" autocomplete="username" value="${escapeHtml(email)}" hidden>`
  const title = words.text('chooseNewPassword')
  return html(ctx, page(words, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(email)}</p><form method="post" action="${action}">${hidden}${username}${field}<button>${words.html('saveNewPassword')}</button></form>`))
}
