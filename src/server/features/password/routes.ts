/**
 * /password: an account's life around its password. POST sub-routes, CSRF-checked, answering
 * `{ ok: true }` (or, posted from the built-in pages, a redirect to the sign-in page):
 * - `sign-up` (`email`, `password`, `name?`): a new account, unconfirmed, and its confirmation
 *   email; for an address that has an account, that owner is emailed instead and the answer is
 *   the same;
 * - `verify` (`email`, `code` or `token`): the address is confirmed (its first proof);
 * - `verify-again` (`email`) and `forgot` (`email`): a new email where there is something to
 *   send, the same answer where there is not;
 * - `reset` (`email`, `code` or `token`, `password`): a new password; every session ends and
 *   every trusted device (mfa) asks for the second factor again.
 * GET /password (signed in) says whether the user has a password; POST /password `action=set`
 * (fresh session; `currentPassword` where there is one) sets or changes it, ending other sessions.
 * GET /password/verify and /password/reset are the emailed links' pages, GET /password/sign-up and
 * /password/forgot the built-in pages' forms for those steps (pages.ts).
 */
import type { AdapterUser } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { readBody, stringField, type Body } from '../../kernel/body.js'
import { afterAnswer } from '../../kernel/after-answer.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { requireFresh } from '../../kernel/fresh.js'
import { readAction, requireOwner } from '../../kernel/manage.js'
import type { Notice } from '../../kernel/page-html.js'
import { pageWords } from '../../kernel/page-language.js'
import { json, redirect, type Reply } from '../../kernel/respond.js'
import { readSession } from '../../kernel/session.js'
import { requestTheme } from '../../kernel/theme.js'
import { createUserOrWinner } from '../../sign-in/complete.js'
import { beforeSignInRefusal, checkBeforeSignIn } from '../../sign-in/before.js'
import { proveAddress } from '../../sign-in/first-proof.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { isBreached } from './breached.js'
import { passwordEmail, type EmailOf } from './emails.js'
import { hashPassword, verifyPassword } from './hash.js'
import type { ResolvedPassword } from './options.js'
import { formPage, linkPage } from './pages.js'
import { checkPasswordPolicy, normalizePassword } from './policy.js'
import { ownProof } from './own-proof.js'
import { passwordStore } from './store.js'
import { emailOf, issueLink, useLinkOrCode } from './tokens.js'

const ok = { ok: true }

export async function getPassword(ctx: Context, sub: string | undefined, options: ResolvedPassword): Promise<Reply> {
  if (sub === 'verify' || sub === 'reset') return linkPage(ctx, sub, options)
  if (sub === 'sign-up' || sub === 'forgot') return formPage(ctx, sub, options)
  if (sub !== undefined) throw new AuthError('UnknownAction', 'GET /password takes no path segment but verify, reset, sign-up or forgot')
  const { user } = await requireOwner(ctx)
  return json(ctx, { hasPassword: !!(await passwordStore(ctx).getPasswordHash(user.id)) })
}

export async function postPassword(ctx: Context, sub: string | undefined, options: ResolvedPassword): Promise<Reply> {
  if (sub === undefined) return setPassword(ctx, options)
  const flow = Object.hasOwn(flows, sub) ? flows[sub] : undefined
  if (!flow) throw new AuthError('UnknownAction', 'Expected POST /password/sign-up, verify, verify-again, forgot or reset')
  const fromPage = !ctx.returnRedirect && /html/.test(ctx.incoming.header('accept') ?? '')
  const signInPage = ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  try {
    await verifyCsrf(ctx, body.csrfToken)
    await flow.run(ctx, options, body)
  } catch (error) {
    // The built-in pages post plain forms: a refusal goes back in words, to the form the person
    // can try again on where there is one (sign-up, forgot), else to the sign-in page.
    if (!fromPage || !(error instanceof AuthError) || error.status >= 500) throw error
    const back = sub === 'sign-up' || sub === 'forgot' ? `${ctx.baseUrl}/password/${sub}` : signInPage
    return redirect(ctx, `${back}?error=${encodeURIComponent(error.type)}`)
  }
  if (fromPage) return redirect(ctx, `${signInPage}?notice=${flow.notice}`)
  return json(ctx, ok)
}

/** Each step posted under /password, and the notice the sign-in page shows after it, posted from a page. */
const flows: Record<string, { run: (ctx: Context, options: ResolvedPassword, body: Body) => Promise<void>; notice: Notice }> = {
  'sign-up': { run: signUp, notice: 'confirmation-sent' },
  verify: { run: verify, notice: 'email-verified' },
  'verify-again': { run: verifyAgain, notice: 'confirmation-sent' },
  forgot: { run: forgot, notice: 'reset-link-sent' },
  reset: { run: reset, notice: 'password-reset' },
}

/** The new password in `field`, normalized, checked against the length rules and the breached list. */
async function newPassword(ctx: Context, options: ResolvedPassword, body: Body, field = 'password'): Promise<string> {
  const password = checkPasswordPolicy(body[field], options)
  if (options.breached && (await isBreached(password, options.breached, ctx.config.logger))) {
    throw new AuthError('PasswordBreached', 'This password has appeared in a data breach: choose another one', { status: 400 })
  }
  return password
}

async function send(ctx: Context, options: ResolvedPassword, ...args: EmailOf): Promise<void> {
  await options.sendEmail(passwordEmail(pageWords(ctx), requestTheme(ctx), new URL(ctx.origin).host, ...args))
}

async function signUp(ctx: Context, options: ResolvedPassword, body: Body): Promise<void> {
  const email = emailOf(body)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', email, ctx.now)
  // A sign-up is a way in that starts with the address: refused, as a sign-in is, before anything is made or sent.
  await checkBeforeSignIn(ctx, { step: 'start', email, provider: options.id })
  const password = await newPassword(ctx, options, body)
  const store = passwordStore(ctx)
  const existing = await store.getUserByEmail(email)
  // Both ways spend one hash, so the time does not tell them apart either.
  const hash = await hashPassword(password)
  const name = stringField(body, 'name')?.trim().slice(0, 200) || null
  // A sign-up of this address on another server at once may create the user first: then this one
  // is a sign-up of an existing address, which proves nothing and sets no password.
  const made = existing ? undefined : await createUserOrWinner(ctx, { email, name, emailVerified: null })
  const owner = existing ?? (made!.created ? undefined : made!.user)
  if (owner) {
    const link = (await store.getPasswordHash(owner.id)) ? await issueLink(ctx, 'reset', email, options.linkMaxAge) : undefined
    return send(ctx, options, 'account-exists', email, link)
  }
  const user = made!.user
  await store.setPasswordHash(user.id, hash)
  await send(ctx, options, 'verify-email', email, await issueLink(ctx, 'verify', email, options.linkMaxAge))
}

async function verify(ctx: Context, options: ResolvedPassword, body: Body): Promise<void> {
  const email = emailOf(body)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'emailCode', email, ctx.now)
  await useLinkOrCode(ctx, 'verify', email, body)
  const user = await passwordStore(ctx).getUserByEmail(email)
  if (!user) throw new AuthError('InvalidCode', 'This link or code is not right; ask for a new email', { status: 400 })
  await proveOwn(ctx, user)
}

// verify-again and forgot answer before they look the address up: the lookup, the link stored
// and the email sent (an SMTP round trip) run after the answer, which takes as long whether the
// address has an account or not (kernel/after-answer.ts).

async function verifyAgain(ctx: Context, options: ResolvedPassword, body: Body): Promise<void> {
  const email = emailOf(body)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', email, ctx.now)
  afterAnswer(ctx, 'The confirmation email (POST /password/verify-again)', 'EmailSignin', async () => {
    // A plugin's refusal (sso: a required connection) only stops the email: the answer was already the same for every address.
    if (await beforeSignInRefusal(ctx, { step: 'start', email, provider: options.id })) return
    const store = passwordStore(ctx)
    const user = await store.getUserByEmail(email)
    if (!user || user.emailVerified || !(await store.getPasswordHash(user.id))) return
    await send(ctx, options, 'verify-email', email, await issueLink(ctx, 'verify', email, options.linkMaxAge))
  })
}

async function forgot(ctx: Context, options: ResolvedPassword, body: Body): Promise<void> {
  const email = emailOf(body)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'email', email, ctx.now)
  // A reset is a way back in: refused from the address alone, before anything is looked up or sent.
  await checkBeforeSignIn(ctx, { step: 'start', email, provider: options.id })
  afterAnswer(ctx, 'The password reset email (POST /password/forgot)', 'EmailSignin', async () => {
    const store = passwordStore(ctx)
    const user = await store.getUserByEmail(email)
    // Only an account with a password is reset: one that signs in otherwise sets one while signed in.
    if (!user || !(await store.getPasswordHash(user.id))) return
    await send(ctx, options, 'reset-password', email, await issueLink(ctx, 'reset', email, options.linkMaxAge))
  })
}

async function reset(ctx: Context, options: ResolvedPassword, body: Body): Promise<void> {
  const email = emailOf(body)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'emailCode', email, ctx.now)
  // A link asked for before a plugin refused the address (a connection made required) sets nothing.
  await checkBeforeSignIn(ctx, { step: 'start', email, provider: options.id })
  const password = await newPassword(ctx, options, body)
  await useLinkOrCode(ctx, 'reset', email, body)
  const store = passwordStore(ctx)
  const user = await store.getUserByEmail(email)
  if (!user) throw new AuthError('InvalidCode', 'This link or code is not right; ask for a new email', { status: 400 })
  await store.setPasswordHash(user.id, await hashPassword(password))
  // The reset proved the address, and whoever held the account before must not stay in it.
  await proveOwn(ctx, user)
  await endSessions(ctx, user, undefined)
  // Nor skip the second factor on a browser they had trusted (a copied device cookie).
  await ctx.config.secondFactor?.forgetTrustedDevices(ctx, user.id)
  for (const plugin of ctx.config.plugins) await plugin.onPasswordReset?.(ctx, { userId: user.id })
  await ctx.config.events.passwordReset?.({ user })
  await send(ctx, options, 'password-changed', email)
}

/** POST /password `action=set`: the signed-in user sets a first password or changes theirs. */
async function setPassword(ctx: Context, options: ResolvedPassword): Promise<Reply> {
  const me = await requireOwner(ctx)
  const { body } = await readAction(ctx, ['set'])
  requireFresh(ctx, me.signedInAt)
  const store = passwordStore(ctx)
  const stored = await store.getPasswordHash(me.user.id)
  if (stored) {
    // A guess at the current password is a guess at the sign-in's: counted with them, by the same rules (off with rateLimit: false, as sign-in's).
    const attempt = await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'credentials', [me.user.email ?? `user:${me.user.id}`], ctx.now)
    let current = ''
    try {
      current = normalizePassword(typeof body.currentPassword === 'string' ? body.currentPassword : '')
    } catch {}
    if (!(await verifyPassword(current, stored)).ok) throw new AuthError('CredentialsSignin', 'Expected your current password in "currentPassword"', { status: 401 })
    await attempt.succeeded()
  }
  const password = await newPassword(ctx, options, body)
  await store.setPasswordHash(me.user.id, await hashPassword(password))
  if (options.endOtherSessions) await endSessions(ctx, me.user, (await readSession(ctx, false)).record?.sessionToken)
  await ctx.config.events.passwordChanged?.({ user: me.user })
  if (me.user.email) await send(ctx, options, 'password-changed', me.user.email)
  return json(ctx, { hasPassword: true })
}

/** Confirms the address by this feature's own link or code: the first proof, keeping the password. */
async function proveOwn(ctx: Context, user: AdapterUser): Promise<void> {
  if (user.emailVerified) return
  ownProof.set(ctx, true)
  await proveAddress(ctx, user)
}

/**
 * Ends the user's database sessions but `keep` (the one making the change). JWT sessions live in
 * their cookies and cannot be ended from here (docs/passwords.md).
 */
async function endSessions(ctx: Context, user: AdapterUser, keep: string | undefined): Promise<void> {
  if (ctx.config.session.strategy !== 'database') return
  const adapter = ctx.config.adapter!
  if (!keep) return adapter.deleteSessionsByUserId?.(user.id) as Promise<void>
  for (const s of (await adapter.listSessionsByUserId?.(user.id)) ?? []) if (s.sessionToken !== keep) await adapter.deleteSession?.(s.sessionToken)
}
