/** The small server-rendered pages: sign-in, sign-out, verify-request and error (the frame is kernel/page-html.ts). */
import type { ErrorType } from '../../core/errors.js'
import { readableOn } from '../../core/readable-on.js'
import type { AppProvider } from '../../core/types.js'
import type { Context } from '../kernel/context.js'
import { errorParagraph, errorText, escapeHtml, noticeParagraph, page } from '../kernel/page-html.js'
import type { PageWords } from '../kernel/page-language.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'

/** `tryAgain`: where the page's one link goes, from `tryAgainUrl`. */
export function errorPage(ctx: Context, words: PageWords, type: string, tryAgain: string): string {
  return page(
    ctx,
    words,
    words.text('errorTitle'),
    `<h1>${words.html('errorTitle')}</h1><p class="error" data-error="${escapeHtml(type)}">${errorText(ctx, words, type)}</p><p><a href="${escapeHtml(tryAgain)}">${words.html('tryAgain')}</a></p>`,
  )
}

/**
 * Where the error page's "Try again" goes: the app's own sign-in page (`pages.signIn`) when it
 * passes the check every callbackUrl passes (the `redirect` callback, else this origin and
 * `trustedOrigins`), else the built-in one; with the callbackUrl the sign-in started with, when
 * its cookie holds one that passes the same check.
 */
export async function tryAgainUrl(ctx: Context): Promise<string> {
  const own = ctx.config.pages.signIn
  const signIn = (own && (await allowedUrl(ctx, own))) || `${ctx.baseUrl}/signin`
  const started = ctx.cookies.get(ctx.names.callbackUrl)
  const back = started && (await allowedUrl(ctx, started))
  return back ? `${signIn}${signIn.includes('?') ? '&' : '?'}callbackUrl=${encodeURIComponent(back)}` : signIn
}

/** The URL made absolute, when the redirect check gives it back unchanged; else null. */
async function allowedUrl(ctx: Context, url: string): Promise<string | null> {
  if (!URL.canParse(url, ctx.origin)) return null
  const absolute = new URL(url, ctx.origin).href
  try {
    return (await resolveCallbackUrl(ctx, absolute)) === absolute ? absolute : null
  } catch {
    // A failing `redirect` callback must not take the error page down with it.
    return null
  }
}

export function verifyRequestPage(ctx: Context, words: PageWords): string {
  return page(ctx, words, words.text('checkEmail'), `<h1>${words.html('checkEmail')}</h1><p>${words.html('linkSent')}</p>`)
}

export function signOutPage(ctx: Context, words: PageWords, csrfToken: string, action: string): string {
  const signOut = words.html('signOut')
  return page(ctx, words, words.text('signOut'), `<h1>${signOut}</h1><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><button>${signOut}</button></form>`)
}

/** The hidden inputs every form of the sign-in page carries. */
export function hiddenInputs(csrfToken: string, callbackUrl: string | undefined): string {
  return `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}">${callbackUrl ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">` : ''}`
}

/** A CSS colour of the plain forms (hex, a name, a colour function of numbers): the app's provider `style` reaches a style attribute only as one. */
const cssColour = /^(#[0-9a-f]{3,8}|[a-z]+|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+-]*\))$/i
const colourOf = (value: string | undefined) => (value && cssColour.test(value.trim()) ? value.trim() : undefined)

/**
 * A provider's default form: one button that posts to /signin/:provider, filled with its brand
 * colour, its words white or near-black, whichever reads better (or the style's own `text`), and
 * its logo, decorative beside the words that name the provider.
 */
export function buttonForm(provider: AppProvider, hidden: string, words: PageWords): string {
  const style = provider.style ?? {}
  const brand = colourOf(style.brandColor ?? style.bg)
  const text = colourOf(style.text) ?? readableOn(brand)
  const look = brand ? ` style="--latchkey-brand:${escapeHtml(brand)}${text ? `;--latchkey-brand-text:${escapeHtml(text)}` : ''}"` : ''
  const logo = style.logo ? `<img src="${escapeHtml(style.logo)}" alt="" width="20" height="20">` : ''
  return `<form method="post" action="${escapeHtml(provider.signinUrl)}">${hidden}<button${look}>${logo}${words.html('signInWith', { name: provider.name })}</button></form>`
}

/**
 * The sign-in page around the providers' forms (each sign-in method draws its own, and brings
 * the inline scripts they need), with the error (`?error=`) or the notice (`?notice=`) it was
 * opened with.
 */
export function signInPage(ctx: Context, words: PageWords, forms: string[], query: { error?: string | null; notice?: string | null }, scripts: readonly string[] = []): string {
  const body = forms.join('<hr>') || `<p>${words.html('noProviders')}</p>`
  const script = scripts.map((s) => `<script>${s}</script>`).join('')
  return page(ctx, words, words.text('signIn'), `<h1>${words.html('signIn')}</h1>${noticeParagraph(words, query.notice)}${errorParagraph(ctx, words, query.error)}${body}${script}`)
}

export type { ErrorType }
