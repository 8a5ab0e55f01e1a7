/** The small server-rendered pages: sign-in, sign-out, verify-request and error (the frame is kernel/page-html.ts). */
import type { ErrorType } from '../../core/errors.js'
import type { AppProvider } from '../../core/types.js'
import type { Context } from '../kernel/context.js'
import { escapeHtml, page } from '../kernel/page-html.js'
import { pluginWords, type PageKey, type PageWords } from '../kernel/page-language.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'

/** The error codes the pages put in words (`?error=`); any other is shown as `Configuration`. */
const errorTypes: readonly string[] = [
  'AccessDenied',
  'Verification',
  'InvalidCode',
  'CodeAlreadyUsed',
  'CodeExpired',
  'TooManyAttempts',
  'CredentialsSignin',
  'OAuthAccountNotLinked',
  'OAuthSignInError',
  'OAuthCallbackError',
  'EmailSignin',
  'MissingCSRF',
  'InvalidCheck',
  'RateLimited',
  'SessionNotFresh',
  'WebAuthnVerificationError',
  'SecondFactorRequired',
  'SecondFactorSetupRequired',
  'Configuration',
] satisfies PageKey[]

/**
 * The sentence for `type`: the pages' own, else that of an installed plugin that registered the
 * code and has a message under its name (`LatchkeyPlugin.messages`), else `Configuration`'s.
 */
function errorText(ctx: Context, words: PageWords, type: string): string {
  if (errorTypes.includes(type)) return words.html(type as PageKey)
  const plugin = ctx.config.plugins.find((p) => p.errorCodes?.includes(type) && p.messages && Object.hasOwn(p.messages.en, type))
  return plugin ? pluginWords(ctx, plugin.messages!).html(type) : words.html('Configuration')
}

/** `tryAgain`: where the page's one link goes, from `tryAgainUrl`. */
export function errorPage(ctx: Context, words: PageWords, type: string, tryAgain: string): string {
  return page(
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

export function verifyRequestPage(words: PageWords): string {
  return page(words, words.text('checkEmail'), `<h1>${words.html('checkEmail')}</h1><p>${words.html('linkSent')}</p>`)
}

export function signOutPage(words: PageWords, csrfToken: string, action: string): string {
  const signOut = words.html('signOut')
  return page(words, words.text('signOut'), `<h1>${signOut}</h1><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><button>${signOut}</button></form>`)
}

/** The hidden inputs every form of the sign-in page carries. */
export function hiddenInputs(csrfToken: string, callbackUrl: string | undefined): string {
  return `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}">${callbackUrl ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">` : ''}`
}

/** A provider's default form: one button that posts to /signin/:provider, in its brand colour. */
export function buttonForm(provider: AppProvider, hidden: string, words: PageWords): string {
  const color = provider.style?.brandColor ?? provider.style?.bg
  return `<form method="post" action="${escapeHtml(provider.signinUrl)}">${hidden}<button${color ? ` style="background:${escapeHtml(color)}"` : ''}>${words.html('signInWith', { name: provider.name })}</button></form>`
}

/** The sign-in page around the providers' forms (each sign-in method draws its own). */
export function signInPage(ctx: Context, words: PageWords, forms: string[], error: string | null | undefined): string {
  const shown = error ? `<p class="error" role="alert" data-error="${escapeHtml(error)}">${errorText(ctx, words, error)}</p>` : ''
  return page(words, words.text('signIn'), `<h1>${words.html('signIn')}</h1>${shown}${forms.join('<hr>') || `<p>${words.html('noProviders')}</p>`}`)
}

export type { ErrorType }
