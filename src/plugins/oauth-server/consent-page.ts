/**
 * The built-in consent page and the refusal page, in the shared page frame (the app's theme, the
 * request's language), served with the kernel's page headers: no framing (`frame-ancestors
 * 'none'`, `X-Frame-Options: DENY`), no script, forms to this origin only and, for the redirect
 * the answer makes, to the client's redirect URI.
 */
import { escapeHtml, html, page, pageWords, pluginWords, readBody, verifyCsrf, type Body, type Context, type Reply } from 'latchkey/server'
import { messages, type MessageKey } from './messages.js'
import type { AuthorizationRequest, ResolvedClient, ScopeWords } from './options.js'
import { serverOptions } from './instance.js'

function scopeText(words: ScopeWords, lang: string): string {
  if (typeof words === 'string') return words
  return words[lang] ?? words[lang.split('-')[0]!] ?? words.en
}

function target(redirectUri: string): string {
  const url = new URL(redirectUri)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol
}

/** The scopes of a request as list items, in the page's language. */
export const scopeItems = (words: Record<string, ScopeWords>, scope: string, lang: string) =>
  scope
    .split(' ')
    .filter(Boolean)
    .map((one) => `<li>${escapeHtml(scopeText(words[one]!, lang))}</li>`)
    .join('')

/**
 * A page's form post, read and CSRF-checked; a refusal is the refusal page (a 4xx, never a 500:
 * a body the kernel refused keeps its status).
 */
export async function checkedForm(ctx: Context, what: string): Promise<{ body: Body; refused?: undefined } | { refused: Reply }> {
  try {
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    await verifyCsrf(ctx, body.csrfToken)
    return { body }
  } catch (error) {
    const status = (error as { status?: number }).status ?? 400
    ctx.config.logger.warn(`OAuth ${what} refused: ${(error as Error).message}`)
    return { refused: refusalPage(ctx, 'consentForgery', undefined, status >= 400 && status < 500 ? status : 400) }
  }
}

export function consentPage(ctx: Context, shown: { id: string; client: ResolvedClient; request: AuthorizationRequest; account: string; csrfToken: string }): Reply {
  const { client, request } = shown
  const words = pluginWords(ctx, messages)
  const options = serverOptions.get(ctx.config)
  const name = `<strong>${escapeHtml(client.name)}</strong>`
  const title = words.text('consentTitle', { client: client.name })
  const logo = client.logoUri ? `<img src="${escapeHtml(client.logoUri)}" alt="" width="48" height="48">` : ''
  const scopes = scopeItems(options.scopes, request.scope, words.lang)
  const redirectTo = new URL(request.redirect_uri)
  const host = redirectTo.host || redirectTo.protocol
  const hidden = `<input type="hidden" name="csrfToken" value="${escapeHtml(shown.csrfToken)}"><input type="hidden" name="request" value="${escapeHtml(shown.id)}">`
  const body =
    `${logo}<h1>${words.html('consentTitle', { client: client.name }, { client: name })}</h1>` +
    `<p>${words.html('consentLead', { client: client.name }, { client: name })}</p><ul class="scopes">${scopes}</ul>` +
    `<p>${words.html('consentAccount', { account: shown.account })}</p><p>${words.html('consentReturn', { host })}</p>` +
    `<form method="post" action="${escapeHtml(`${ctx.baseUrl}/oauth2/consent`)}">${hidden}` +
    `<button name="decision" value="allow">${words.html('allow')}</button> <button name="decision" value="deny" class="secondary">${words.html('deny')}</button></form>`
  return html(ctx, page(ctx, pageWords(ctx), title, body), 200, [target(request.redirect_uri)])
}

/** Why the request stops here, in words; `details` (English, for the developer) escaped. */
export function refusalPage(ctx: Context, why: MessageKey, details: string | undefined, status: number): Reply {
  const words = pluginWords(ctx, messages)
  const title = words.text('refusedTitle')
  const more = details ? `<p><small>${words.html('details', { details })}</small></p>` : ''
  return html(ctx, page(ctx, pageWords(ctx), title, `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${words.html(why)}</p>${more}`), status)
}
