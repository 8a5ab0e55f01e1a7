/** The small server-rendered pages: sign-in, sign-out, verify-request and error. */
import type { ErrorType } from '../../core/errors.js'
import type { AppProvider } from '../../core/types.js'
import type { Context } from '../kernel/context.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'

export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font:16px/1.5 system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001;padding:2rem;width:min(22rem,90vw)}
h1{font-size:1.3rem;margin:0 0 1rem}form{display:grid;gap:.5rem;margin:0 0 1rem}
label{display:grid;gap:.25rem;font-size:.9rem}input,button{font:inherit;padding:.6rem .8rem;border-radius:8px;border:1px solid #ccc}
button{background:#1d1d1f;color:#fff;border:0;cursor:pointer}.error{color:#b00020}hr{border:0;border-top:1px solid #eee;margin:1rem 0}
</style></head><body><main>${body}</main></body></html>`
}

export const errorMessages: Record<string, string> = {
  AccessDenied: 'You do not have permission to sign in.',
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  InvalidCode: 'That code is not right. Check it and try again.',
  CodeExpired: 'That code has expired. Ask for a new one.',
  TooManyAttempts: 'Too many wrong codes. Ask for a new one.',
  CredentialsSignin: 'Sign-in failed. Check the details you provided.',
  OAuthAccountNotLinked: 'This account is linked to another user, or its email address belongs to another user. Sign in the way you did before.',
  OAuthSignInError: 'Signing in with the provider could not start. Try again.',
  OAuthCallbackError: 'The provider did not complete the sign-in. Try again.',
  EmailSignin: 'The sign-in email could not be sent. Check the address.',
  MissingCSRF: 'The form expired. Reload the page and try again.',
  InvalidCheck: 'The sign-in could not be verified. Start again.',
  RateLimited: 'Too many attempts. Wait a moment and try again.',
  SessionNotFresh: "Confirm it's you first: sign in again the way you did before, then add the new way to sign in.",
  WebAuthnVerificationError: 'The passkey could not be verified.',
  SecondFactorRequired: 'Enter the code from your authenticator app to finish signing in.',
  SecondFactorSetupRequired: 'This account needs a second factor: set up an authenticator app to finish signing in.',
  Configuration: 'There is a problem with the server configuration. The server log has the details.',
}

/** `tryAgain`: where the page's one link goes, from `tryAgainUrl`. */
export function errorPage(type: string, tryAgain: string): string {
  const message = errorMessages[type] ?? errorMessages.Configuration
  return page(
    'Sign-in error',
    `<h1>Sign-in error</h1><p class="error" data-error="${escapeHtml(type)}">${escapeHtml(message)}</p><p><a href="${escapeHtml(tryAgain)}">Try again</a></p>`,
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

export function verifyRequestPage(): string {
  return page('Check your email', '<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p>')
}

export function signOutPage(csrfToken: string, action: string): string {
  return page('Sign out', `<h1>Sign out</h1><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}"><button>Sign out</button></form>`)
}

/** The hidden inputs every form of the sign-in page carries. */
export function hiddenInputs(csrfToken: string, callbackUrl: string | undefined): string {
  return `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}">${callbackUrl ? `<input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">` : ''}`
}

/** A provider's default form: one button that posts to /signin/:provider, in its brand colour. */
export function buttonForm(provider: AppProvider, hidden: string): string {
  const color = provider.style?.brandColor ?? provider.style?.bg
  return `<form method="post" action="${escapeHtml(provider.signinUrl)}">${hidden}<button${color ? ` style="background:${escapeHtml(color)}"` : ''}>Sign in with ${escapeHtml(provider.name)}</button></form>`
}

/** The sign-in page around the providers' forms (each sign-in method draws its own). */
export function signInPage(forms: string[], error: string | null | undefined): string {
  const shown = error ? `<p class="error" role="alert" data-error="${escapeHtml(error)}">${escapeHtml(errorMessages[error] ?? errorMessages.Configuration)}</p>` : ''
  return page('Sign in', `<h1>Sign in</h1>${shown}${forms.join('<hr>') || '<p>No providers are configured.</p>'}`)
}

export type { ErrorType }
