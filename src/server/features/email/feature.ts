/**
 * Email links: /signin sends one, /callback takes it. A GET of the link signs in only the browser
 * that asked for it, and only where that browser is not signed in as someone else; every other
 * request (a HEAD, a mail scanner, a chat preview, another device) gets a page whose button posts
 * the link, so nothing but a person's click uses it.
 */
import { AuthError } from '../../../core/errors.js'
import type { EmailConfig } from '../../../core/types.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { html, redirect, type Reply } from '../../kernel/respond.js'
import { pageWords } from '../../kernel/page-language.js'
import { readSession } from '../../kernel/session.js'
import { escapeHtml } from '../../kernel/page-html.js'
import { withSignInNotice } from '../../sign-in/first-proof.js'
import { answerDue } from '../../sign-in/complete.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { checkEmailCodes, codeOptions, useCode } from './code.js'
import { completeEmailSignIn, emailIdentifier, readEmailLink, sendEmailLink, useEmailLink, type EmailLink } from './link.js'
import { checkPageProof, linkConfirmPage, pageProof } from './link-page.js'
import { forgetRequester, isRequester, requestCookie } from './requester.js'

export const email: LatchkeyPlugin = {
  id: 'email',
  uses: usedByProvidersOf('email'),
  cookies: [requestCookie],
  configure: (_, resolved) => checkEmailCodes(resolved),
  method: {
    types: ['email'],
    leavesSite: true,
    async start(ctx, provider, body, callbackUrl) {
      // Counted by the address the link goes to, after the provider's own normalising.
      const identifier = emailIdentifier(provider as EmailConfig, stringField(body, 'email'))
      await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', identifier, ctx.now)
      await sendEmailLink(ctx, provider as EmailConfig, identifier, callbackUrl)
      return redirect(ctx, ctx.config.pages.verifyRequest ?? `${ctx.baseUrl}/verify-request?provider=${encodeURIComponent(provider.id)}&type=email`)
    },
    async callback(ctx, provider, body) {
      const config = provider as EmailConfig
      const posted = ctx.incoming.method === 'POST'
      if (posted && body.code !== undefined) return signInWithCode(ctx, config, body)
      const fields = posted ? body : Object.fromEntries(ctx.url.searchParams)
      const link = readEmailLink(config, fields.token, fields.email)
      const callbackUrl = await resolveCallbackUrl(ctx, typeof fields.callbackUrl === 'string' ? fields.callbackUrl : undefined)
      if (posted) await checkPageProof(ctx, link.identifier, link.token, fields.proof)
      else {
        // Read once, for both questions: a HEAD reads nothing (it never uses a link).
        const current = ctx.incoming.method === 'GET' ? await signedInAs(ctx) : undefined
        if (!(await mayUseStraight(ctx, link, current))) return confirmPage(ctx, provider.id, link, callbackUrl, current)
      }
      const due = answerDue(ctx, await useEmailLink(ctx, config, link))
      if (due) return due
      forgetRequester(ctx)
      return redirect(ctx, withSignInNotice(ctx, callbackUrl))
    },
    adapterMethods: () => ['createVerificationToken', 'useVerificationToken'],
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

/**
 * A plain GET from the browser that asked and is signed in as nobody else, or from one signed in
 * as the link's own address (a scanner holds no such session). A HEAD never uses a link.
 */
async function mayUseStraight(ctx: Context, link: EmailLink, current: SignedInAs): Promise<boolean> {
  if (ctx.incoming.method !== 'GET') return false
  if (current === link.identifier) return true
  return current === undefined && (await isRequester(ctx, link.identifier, link.token))
}

/** Whom this browser is signed in as: their address, null for a user without one, undefined for nobody. */
type SignedInAs = string | null | undefined

/** Read without extending the session, so no cookie is set. */
async function signedInAs(ctx: Context): Promise<SignedInAs> {
  const { session } = await readSession(ctx, false)
  return session ? (session.user?.email ?? null) : undefined
}

async function confirmPage(ctx: Context, providerId: string, link: EmailLink, callbackUrl: string, current: SignedInAs): Promise<Reply> {
  const words = pageWords(ctx)
  const page = linkConfirmPage(words, {
    ...link,
    callbackUrl,
    action: `${ctx.baseUrl}/callback/${encodeURIComponent(providerId)}`,
    proof: await pageProof(ctx, link.identifier, link.token),
    signedInAs: current === undefined || current === link.identifier ? undefined : (current ?? words.text('anotherAccount')),
  })
  // Nothing of this request may leave a cookie: a scanner must find the browser as it was.
  ctx.setCookies = []
  return html(ctx, page)
}

/**
 * POST /callback/:email with `email` and `code` (and the CSRF token): the code the email carried
 * signs in this browser, wherever the email was read. Rate-limited per address and per client.
 */
async function signInWithCode(ctx: Context, provider: EmailConfig, body: Body): Promise<Reply> {
  await verifyCsrf(ctx, body.csrfToken)
  let identifier: string
  try {
    identifier = emailIdentifier(provider, stringField(body, 'email'))
  } catch {
    throw new AuthError('InvalidCode', 'Expected the email address the code was sent to in the "email" field', { status: 400 })
  }
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'emailCode', identifier, ctx.now)
  await useCode(ctx, provider, identifier, body.code)
  const callbackUrl = await resolveCallbackUrl(ctx, typeof body.callbackUrl === 'string' ? body.callbackUrl : undefined)
  return answerDue(ctx, await completeEmailSignIn(ctx, provider, identifier)) ?? redirect(ctx, withSignInNotice(ctx, callbackUrl))
}
