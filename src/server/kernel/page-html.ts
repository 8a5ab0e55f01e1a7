/**
 * The frame of every server-rendered page, for the shared routes and the features' own pages
 * alike, and what those pages say of the query they were opened with: an error code (`?error=`)
 * or a notice (`?notice=`), each in words only when it is one the server knows.
 */
import { toBase64Url } from '../../core/encoding.js'
import { escapeHtml, pluginWords, type PageWords } from './page-language.js'
import { colorSchemes, pageStyle } from './page-style.js'
import { requestTheme } from './theme.js'
import type { Context, PageKey } from './types.js'

export { escapeHtml }

/**
 * A page in `words`' language, its direction with it (the style uses logical properties, so it
 * mirrors), in the configuration's theme (page-style.ts): the app's name, and its logo, above
 * the page's own content.
 */
export function page(ctx: Pick<Context, 'config' | 'origin'>, words: Pick<PageWords, 'lang' | 'dir'>, title: string, body: string): string {
  const theme = requestTheme(ctx)
  // The logo is decorative: the name beside it says what it shows.
  const logo = theme.logo ? `<img src="${escapeHtml(theme.logo)}" alt="" height="32">` : ''
  return `<!doctype html><html lang="${escapeHtml(words.lang)}" dir="${words.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="${colorSchemes[theme.colorScheme ?? 'auto']}"><title>${escapeHtml(title)}</title><style>${pageStyle(theme)}
</style></head><body><main><div class="brand">${logo}<span>${escapeHtml(theme.name)}</span></div>${body}</main></body></html>`
}

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
  'EmailNotVerified',
  'PasswordTooShort',
  'PasswordTooLong',
  'PasswordBreached',
  'MissingCSRF',
  'InvalidCheck',
  'RateLimited',
  'StoreUnavailable',
  'SessionNotFresh',
  'WebAuthnVerificationError',
  'SecondFactorRequired',
  'SecondFactorSetupRequired',
  'Configuration',
] satisfies PageKey[]

/**
 * The sentence for `type`, as HTML: the pages' own, else that of an installed plugin that
 * registered the code and has a message under its name (`LatchkeyPlugin.messages`), else
 * `Configuration`'s. The code itself is never put on the page but escaped in an attribute.
 */
export function errorText(ctx: Context, words: PageWords, type: string): string {
  if (errorTypes.includes(type)) return words.html(type as PageKey)
  const plugin = ctx.config.plugins.find((p) => p.errorCodes?.includes(type) && p.messages && Object.hasOwn(p.messages.en, type))
  return plugin ? pluginWords(ctx, plugin.messages!).html(type) : words.html('Configuration')
}

/** The error a page was opened with (`?error=`), as an alert; nothing without one. */
export function errorParagraph(ctx: Context, words: PageWords, type: string | null | undefined): string {
  return type ? `<p class="error" role="alert" data-error="${escapeHtml(type)}">${errorText(ctx, words, type)}</p>` : ''
}

/**
 * Every notice the server sends a browser to the sign-in page with (`?notice=`), and its words.
 * A redirect can carry only these (the type), and the page shows only these: any other value,
 * whatever it holds, shows nothing, so the query never reaches the page.
 */
export const notices = {
  /** The address was confirmed (the password confirmation link). */
  'email-verified': 'noticeEmailVerified',
  /** A new password was set (the password reset link). */
  'password-reset': 'noticePasswordReset',
  /** The first proof of an address removed the passkeys registered for it before (sign-in/first-proof.ts). */
  'passkeys-removed': 'noticePasskeysRemoved',
  /** A sign-up, or a new confirmation email, was asked for: the address gets an email. */
  'confirmation-sent': 'noticeConfirmationSent',
  /** A password reset was asked for: the address gets an email where it has an account. */
  'reset-link-sent': 'noticeResetLinkSent',
} as const satisfies Record<string, PageKey>

export type Notice = keyof typeof notices

/** The notice a page was opened with, as a polite status message; nothing for an unknown one. */
export function noticeParagraph(words: PageWords, notice: string | null | undefined): string {
  if (!notice || !Object.hasOwn(notices, notice)) return ''
  return `<p class="notice" role="status" data-notice="${escapeHtml(notice)}">${words.html(notices[notice as Notice])}</p>`
}

/**
 * A page's inline scripts as their CSP sources (`'sha256-…'`): a page's `script-src` names the
 * hashes of the scripts it carries, so no other script runs on it.
 */
export async function scriptHashes(scripts: readonly string[]): Promise<string[]> {
  const encoder = new TextEncoder()
  return Promise.all(
    scripts.map(async (script) => {
      const base64 = toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(script))))
      return `'sha256-${base64.replace(/-/g, '+').replace(/_/g, '/')}${'='.repeat((4 - (base64.length % 4)) % 4)}'`
    }),
  )
}
