/**
 * Changing the signed-in user's address, confirmed from the new address's inbox.
 *
 * The request (POST /identity `action=change-email`, on a fresh session) answers `{ ok: true }`
 * before it looks the address up: whether the address belongs to another account, the link
 * stored and both emails sent run after the answer (kernel/after-answer.ts), so neither the
 * answer nor its time tells. A free address gets the link; a taken one gets nothing, and nothing
 * ever changes it. The old address gets a notice either way.
 *
 * The link's token is stored as an HMAC naming the user and the new address, under the key
 * `email-change:<user id>` (one outstanding per user: a new request replaces it), for an hour.
 * It is spent only by a session of that same user (another user's session looks under its own
 * key and finds nothing, spending nothing), and sets the address with `emailVerified` at that
 * moment. The old address's email sign-in account goes with it: the old inbox is no way in.
 */
import type { AdapterUser } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { addressField } from '../../kernel/address.js'
import { afterAnswer } from '../../kernel/after-answer.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex, randomToken } from '../../kernel/crypto.js'
import { requireFresh } from '../../kernel/fresh.js'
import { managedAdapter, type SignedIn } from '../../kernel/manage.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'
import { pageWords } from '../../kernel/page-language.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { rewriteSessionUser } from '../../kernel/session.js'
import { requestTheme } from '../../kernel/theme.js'
import { confirmationEmail, noticeEmail } from './emails.js'
import { mailer } from './mailer.js'

/** Seconds the link works. */
export const linkMaxAge = 60 * 60

const methods: Array<'getUserByEmail' | 'updateUser' | 'createVerificationToken' | 'useVerificationToken'> = ['getUserByEmail', 'updateUser', 'createVerificationToken', 'useVerificationToken']
const store = (ctx: Context) => managedAdapter(ctx, methods, 'Changing the email address')

/** No address has a `:` (kernel/address.ts), so no other record takes this key. */
const identifier = (userId: string) => `email-change:${userId}`
const hashToken = (secret: string, userId: string, email: string, token: string) => hmacHex(secret, `email-change|${userId}|${email}|${token}`)

/** The address in `body.email`, normalized; 400 `InvalidRequest` where it is none. */
export function addressOf(body: Body): string {
  return addressField(body, 'email', 'Expected the new email address, like name@example.com, in "email"')
}

/** An address mail is delivered to: not a stand-in under `.invalid` (RFC 2606), as a phone-only user's. */
const deliverable = (email: string | null | undefined): email is string => !!email && !/\.invalid$/i.test(email)

/** POST /identity `action=change-email`: the same answer whoever has the address. */
export async function askEmailChange(ctx: Context, me: SignedIn, body: Body): Promise<{ ok: true }> {
  // A copied old cookie must not move the account to the thief's inbox.
  requireFresh(ctx, me.signedInAt)
  const email = addressOf(body)
  const current = me.user.email?.trim().toLowerCase()
  if (email === current) throw new AuthError('InvalidRequest', 'Expected an address other than the one the account has')
  const send = mailer(ctx)
  const adapter = store(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx, stringField(body, 'callbackUrl'))
  // Each request sends mail: to the user's inbox and to a stranger's.
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'emailChange', [`user:${me.user.id}`, email], ctx.now)
  const { user } = me
  afterAnswer(ctx, 'The email change emails (POST /identity change-email)', 'EmailSignin', async () => {
    const words = pageWords(ctx)
    const theme = requestTheme(ctx)
    const host = new URL(ctx.origin).host
    if (!(await adapter.getUserByEmail(email))) {
      const url = await issueLink(ctx, user, email, callbackUrl)
      await send({ to: email, ...confirmationEmail(words, theme, host, url, linkMaxAge) })
    }
    if (deliverable(user.email)) await send({ to: user.email, ...noticeEmail(words, theme, host) })
  })
  return { ok: true }
}

/** A new link for `user` to take `email`; the one before stops working. */
async function issueLink(ctx: Context, user: AdapterUser, email: string, callbackUrl: string): Promise<string> {
  const token = randomToken(32)
  const expires = new Date(ctx.now + linkMaxAge * 1000)
  await storeOneTimeRecord(ctx, { identifier: identifier(user.id), token: await hashToken(ctx.config.secrets[0], user.id, email, token), expires }, 'the email change', { replace: true })
  const url = new URL(`${ctx.baseUrl}/identity/email`)
  url.searchParams.set('email', email)
  url.searchParams.set('token', token)
  url.searchParams.set('callbackUrl', callbackUrl)
  return url.href
}

const refused = (why: string) => new AuthError('EmailChangeLinkInvalid', `${why}; ask for a new link from your account settings`, { status: 400 })

/**
 * POST /identity/email: the link used by the signed-in user it was made for. Anything else
 * (another user's session, a used, expired or altered link, an address taken meanwhile) is
 * `EmailChangeLinkInvalid` and changes nothing.
 */
export async function confirmEmailChange(ctx: Context, me: SignedIn, body: Body): Promise<AdapterUser> {
  // What a link carries, or not: anything else is no link of ours (whatever its type).
  const token = typeof body.token === 'string' ? body.token : undefined
  let email: string
  try {
    email = addressOf(body)
  } catch {
    throw refused('The link carries no email address')
  }
  if (!token) throw refused('The link carries no token')
  const adapter = store(ctx)
  const { user } = me
  let record = null
  // Every secret in rotation, so a link sent before a rotation still works.
  for (const secret of ctx.config.secrets) {
    record = await adapter.useVerificationToken({ identifier: identifier(user.id), token: await hashToken(secret, user.id, email, token) })
    if (record) break
  }
  if (!record) throw refused('This link is not one for the account signed in here, or it was used already')
  if (record.expires.getTime() <= ctx.now) throw refused('This link has expired')
  const holder = await adapter.getUserByEmail(email)
  if (holder && holder.id !== user.id) throw refused('This address belongs to another account now')
  let changed: AdapterUser
  try {
    changed = await adapter.updateUser({ id: user.id, email, emailVerified: new Date(ctx.now) })
  } catch (error) {
    // Another account took the address between the look-up and the write (the store keeps one user per address).
    if ((error as { code?: string }).code === 'DuplicateEmail') throw refused('This address belongs to another account now')
    throw error
  }
  await leaveOldAddress(ctx, user)
  await rewriteSessionUser(ctx, me.read, changed, { proven: true })
  return changed
}

/**
 * The email sign-in account of the old address signs in no more: that inbox may be someone
 * else's from now on. OAuth accounts and passkeys stay. An adapter that cannot list a user's
 * accounts (Auth.js's) keeps it: a limit (docs/security.md).
 */
async function leaveOldAddress(ctx: Context, user: AdapterUser): Promise<void> {
  const adapter = ctx.config.adapter
  const old = user.email?.trim().toLowerCase()
  if (!old || !adapter?.listAccountsByUserId || !adapter.unlinkAccount) return
  for (const account of await adapter.listAccountsByUserId(user.id)) {
    if (account.type === 'email' && account.providerAccountId.toLowerCase() === old) await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  }
}
