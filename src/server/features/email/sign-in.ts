/**
 * The email way in's steps, loaded on its first use (feature.ts): /signin sends a link (and a
 * code), /callback takes either. A GET of the link signs in only the browser that asked for it.
 */
import { checkBeforeSignIn } from '../../sign-in/before.js'
import { AuthError } from '../../../core/errors.js'
import type { EmailConfig } from '../../../core/types.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { html, redirect, type Reply } from '../../kernel/respond.js'
import { pageWords } from '../../kernel/page-language.js'
import { readSession } from '../../kernel/session.js'
import { withSignInNotice } from '../../sign-in/first-proof.js'
import { answerDue } from '../../sign-in/complete.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { useCode } from './code.js'
import { completeEmailSignIn, emailIdentifier, readEmailLink, sendEmailLink, useEmailLink, type EmailLink } from './link.js'
import { checkPageProof, linkConfirmPage, pageProof } from './link-page.js'
import { forgetRequester, isRequester } from './requester.js'

/** POST /signin: a link (and a code) to the address, then the page that says to check the inbox. */
export async function startEmailSignIn(ctx: Context, provider: EmailConfig, body: Body, callbackUrl: string): Promise<Reply> {
  // Counted by the address the link goes to, after the provider's own normalising.
  const identifier = emailIdentifier(provider, stringField(body, 'email'))
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', identifier, ctx.now)
  // A plugin may refuse the address before anything is sent (sso: its organization requires its connection).
  await checkBeforeSignIn(ctx, { step: 'start', email: identifier, provider: provider.id })
  await sendEmailLink(ctx, provider, identifier, callbackUrl)
  return redirect(ctx, ctx.config.pages.verifyRequest ?? `${ctx.baseUrl}/verify-request?provider=${encodeURIComponent(provider.id)}&type=email`)
}

/** /callback: a posted code, a posted link (from the confirm page), or the link's GET. */
export async function emailCallback(ctx: Context, config: EmailConfig, body: Body): Promise<Reply> {
  const posted = ctx.incoming.method === 'POST'
  if (posted && body.code !== undefined) return signInWithCode(ctx, config, body)
  const fields = posted ? body : Object.fromEntries(ctx.url.searchParams)
  const link = readEmailLink(config, fields.token, fields.email)
  const callbackUrl = await resolveCallbackUrl(ctx, typeof fields.callbackUrl === 'string' ? fields.callbackUrl : undefined)
  if (posted) await checkPageProof(ctx, link.identifier, link.token, fields.proof)
  else {
    // Read once, for both questions: a HEAD reads nothing (it never uses a link).
    const current = ctx.incoming.method === 'GET' ? await signedInAs(ctx) : undefined
    if (!(await mayUseStraight(ctx, link, current))) return confirmPage(ctx, config.id, link, callbackUrl, current)
  }
  const due = answerDue(ctx, await useEmailLink(ctx, config, link))
  if (due) return due
  forgetRequester(ctx)
  return redirect(ctx, withSignInNotice(ctx, callbackUrl))
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
  const page = linkConfirmPage(ctx, words, {
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
