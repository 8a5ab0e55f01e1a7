/**
 * Email links: /signin sends one, /callback takes it. A GET of the link signs in only the browser
 * that asked for it, and only where that browser is not signed in as someone else; every other
 * request (a HEAD, a mail scanner, a chat preview, another device) gets a page whose button posts
 * the link, so nothing but a person's click uses it.
 */
import type { EmailConfig } from '../../../core/types.js'
import { lazy } from '../../kernel/lazy.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { checkEmailCodes, codeOptions, sendsCodes } from './code-options.js'
import { requestCookie } from './request-cookie.js'

// Sending, links, codes and the confirm page load on the first /signin or /callback of this way in.
const steps = lazy(() => import('./sign-in.js'))

export const email: LatchkeyPlugin = {
  id: 'email',
  // A link that is wrong, used or expired.
  errorCodes: ['Verification'],
  uses: usedByProvidersOf('email'),
  cookies: [requestCookie],
  configure: (_, resolved) => checkEmailCodes(resolved),
  method: {
    types: ['email'],
    leavesSite: true,
    start: async (ctx, provider, body, callbackUrl) => (await steps()).startEmailSignIn(ctx, provider as EmailConfig, body, callbackUrl),
    callback: async (ctx, provider, body) => (await steps()).emailCallback(ctx, provider as EmailConfig, body),
    adapterMethods: (config) => ['createVerificationToken', 'useVerificationToken', ...(sendsCodes(config) ? (['createVerificationCode', 'useVerificationCode'] as const) : [])],
    describe(provider) {
      const code = codeOptions(provider as EmailConfig)
      return code ? { code: { length: code.length, numeric: /^\d+$/.test(code.alphabet) } } : {}
    },
    pageForm: (_, app, hidden, words) =>
      `<form method="post" action="${escapeHtml(app.signinUrl)}">${hidden}<label>${words.html('email')} <input type="email" name="email" required autocomplete="email"></label><button>${words.html('signInWith', { name: app.name })}</button></form>`,
    // A proven address can always get a link (an unproven one may not be the user's: first-proof.ts).
    keepsWayIn: (_, __, user) => !!user.emailVerified,
    provesAddress: () => true,
  },
}
