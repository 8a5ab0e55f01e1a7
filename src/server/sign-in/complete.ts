/**
 * The end of every sign-in: find or create the user, link the account, ask the `signIn`
 * callback, start a new session and fire the events. The linking rules of the contract live here.
 */
import type { AdapterAccount, AdapterUser, Profile, User } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import { useAdapter } from '../kernel/adapter-methods.js'
import type { Context } from '../kernel/context.js'
import { passkeysOffered, proveAddress, refuseLinkWhileUnproven } from './first-proof.js'
import { createSession, readSession, type Carried, type SessionRead } from '../kernel/session.js'
import { checkConfirm } from './confirm.js'
import { checkBeforeSignIn } from './before.js'
import { requireFresh } from '../kernel/fresh.js'
import { methodOf } from '../kernel/plugin.js'
import { redirectWithError, type Reply } from '../kernel/respond.js'
import type { DueStep } from '../kernel/types.js'

export interface SignInInput {
  /** The user as the provider describes them (from `profile`, `authorize` or the email address). */
  user: User
  /** The account to link; null for credentials, which are not stored as accounts. */
  account: AdapterAccount | null
  profile?: Profile
  /** Email sign-in: the address was just proven, so `emailVerified` is set on first use. */
  emailVerified?: boolean
  allowDangerousEmailAccountLinking?: boolean
  credentials?: Record<string, unknown>
  /** The provider's id where there is no account to name it (credentials). */
  provider?: string
  /** How the user proved who they are (RFC 8176: `email`, `hwk` and `user` for a verified passkey, `sms`); default `fed` with an account, `pwd` without. */
  amr?: string[]
}

/** `session.amr` of a first factor: as the way in says (RFC 8176's names), else a linked account's `fed`, or `pwd` without one (credentials). */
function amrOf(input: SignInInput): string[] {
  return input.amr ?? (input.account ? ['fed'] : ['pwd'])
}

/** A sign-in's end: its session started, or a step is due first (a second factor), for the caller to answer (`answerDue`). */
export type SignInResult = { started: true; user: AdapterUser | User; isNewUser: boolean } | { started: false; step: DueStep }

/**
 * The stored user; `linkedOver`: the sign-in instant of the held session the sign-in only linked a
 * way to; `link`: the account to link to an existing user once the sign-in completes.
 */
type Resolved = { user: AdapterUser; isNewUser: boolean; linkedOver?: number; link?: AdapterAccount }

/** Resolves the user, runs the `signIn` callback, and starts the session, unless a step is due first. */
export async function completeSignIn(ctx: Context, input: SignInInput): Promise<SignInResult> {
  const allowed = ctx.config.callbacks.signIn
    ? await ctx.config.callbacks.signIn({ user: input.user, account: input.account, profile: input.profile, credentials: input.credentials })
    : true
  if (allowed !== true) throw new AuthError('AccessDenied', 'The signIn callback refused this sign-in', { status: 403 })
  await checkConfirm(ctx, input)
  const provider = input.account?.provider ?? input.provider
  // Before any user is made or linked; again with the stored user where its address is another.
  const attempt = { step: 'complete' as const, provider, account: input.account }
  await checkBeforeSignIn(ctx, { ...attempt, email: input.user.email ?? null, user: input.user })

  const held = ctx.config.adapter ? await readSession(ctx) : undefined
  const result: Resolved | { user: User; isNewUser: boolean } = held ? await resolveStoredUser(ctx, input, held) : { user: input.user, isNewUser: false }
  if (result.user.email && result.user.email.toLowerCase() !== input.user.email?.toLowerCase()) await checkBeforeSignIn(ctx, { ...attempt, email: result.user.email, user: result.user })
  const account = input.account ? { ...input.account, userId: result.user.id as string } : null
  const carried: Carried = { signedInAt: 'linkedOver' in result ? result.linkedOver : undefined }
  if (held?.record && held.record.userId === result.user.id) carried.deviceBinding = held.record.deviceBinding
  const amr = amrOf(input)
  const holdsSession = !!held?.session && (held.user?.id ?? held.session.user.id ?? held.token?.sub) === result.user.id
  // An account joins an existing user only once the sign-in is complete: a pending one carries it (features/mfa).
  const toLink = 'link' in result ? result.link : undefined
  const step = await ctx.config.secondFactor?.check(ctx, { user: result.user, provider, account, isNewUser: result.isNewUser, signedInAt: carried.signedInAt, amr, holdsSession, link: toLink })
  if (step) return { started: false, step }
  if (toLink) await link(ctx, result.user as AdapterUser, toLink, input.profile)
  await startSession(ctx, result.user, { account, profile: input.profile, isNewUser: result.isNewUser, provider, carried, amr })
  return { started: true, user: result.user, isNewUser: result.isNewUser }
}

/**
 * The answer of a sign-in whose step is due, at the sign-in page with `?error=` and the step's
 * type, as a refusal is answered but keeping the cookies the step set (the pending sign-in) and no
 * other this request meant to set; undefined once the session started, for the caller's own answer.
 */
export function answerDue(ctx: Context, result: SignInResult): Reply | undefined {
  if (result.started) return
  const { step } = result
  ctx.config.logger.warn(`${step.due}: ${step.message}`)
  const kept = step.cookies.map((name) => name + '=')
  ctx.setCookies = ctx.setCookies.filter((c) => /Max-Age=0/.test(c) || kept.some((prefix) => c.startsWith(prefix)))
  return redirectWithError(ctx, ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`, step.due, step.status)
}

/**
 * The session of a sign-in whose every factor is proven (here, or after its second factor:
 * features/mfa/verify.ts), the `signIn` event, then each configured kind's `afterSignIn` hook
 * once (a passkey upgrade's marker), then each plugin's.
 */
export async function startSession(ctx: Context, user: AdapterUser | User, details: Parameters<typeof createSession>[2] & { carried: Carried }): Promise<void> {
  const session = await createSession(ctx, user, details)
  await ctx.config.events.signIn?.({ user, account: details.account, profile: details.profile, isNewUser: details.isNewUser })
  const hooks = new Set([...ctx.config.providers.values()].map((p) => methodOf(ctx.config, p)?.afterSignIn))
  for (const plugin of ctx.config.plugins) hooks.add(plugin.afterSignIn)
  const signIn = { user, provider: details.provider, linked: details.carried.signedInAt !== undefined, session }
  for (const hook of hooks) if (hook) await hook(ctx, signIn)
}

/**
 * A sign-in asked to link (`link=true`, as `client.accounts.link` sends it) is refused before the
 * browser leaves for the provider when the session could not add a way in; the completion step
 * decides again on what comes back.
 */
export async function checkLinkStart(ctx: Context): Promise<void> {
  const held = await readSession(ctx)
  if (!held.session) throw new AuthError('AccessDenied', 'Linking an account needs a signed-in user; sign in first', { status: 401 })
  requireFresh(ctx, held.signedInAt)
}

async function resolveStoredUser(ctx: Context, input: SignInInput, held: SessionRead): Promise<Resolved> {
  const adapter = useAdapter(ctx.config, ['getUser', 'getUserByEmail', 'getUserByAccount', 'createUser', 'updateUser', 'linkAccount'], 'sign-in')
  const email = input.user.email ?? null
  // An email link proves the address, so it signs in as the address's owner, whoever is signed in now.
  const signedIn = input.emailVerified ? undefined : held.session?.user
  const current = signedIn?.id ? await adapter.getUser(signedIn.id) : null

  if (!input.account) {
    // Credentials: the app's own user, found by id, then by email, else created.
    const existing = await findUser(ctx, input.user.id, email)
    if (existing) return { user: vouchedFor(ctx, input, existing), isNewUser: false }
    if (!email) {
      throw new AuthError('Configuration', 'authorize returned a user the adapter does not have and no email to create it with; return an existing user id or an email', { status: 500 })
    }
    const made = await createUserOrWinner(ctx, { ...input.user, email, emailVerified: null })
    // Lost to a parallel first sign-in: authorize vouched for this user as for the winner's.
    return made.created ? { user: made.user, isNewUser: true } : { user: vouchedFor(ctx, input, made.user), isNewUser: false }
  }

  const owner = await adapter.getUserByAccount({ provider: input.account.provider, providerAccountId: input.account.providerAccountId })
  if (owner) {
    if (current && current.id !== owner.id) {
      throw new AuthError('OAuthAccountNotLinked', 'This account is already linked to another user', { status: 403 })
    }
    await renewTokens(ctx, input.account)
    return { user: await markVerified(ctx, owner, input), isNewUser: false }
  }

  if (current) {
    // A signed-in user adding another way to sign in: for the owner only, under the guard of
    // adding a passkey, so a copied old cookie cannot add the thief's own account.
    requireFresh(ctx, held.signedInAt)
    await refuseLinkWhileUnproven(ctx, current)
    return { user: await markVerified(ctx, current, input), isNewUser: false, linkedOver: held.signedInAt, link: { ...input.account, userId: current.id } }
  }

  const byEmail = email ? await adapter.getUserByEmail(email) : null
  if (byEmail) return linkByEmail(ctx, byEmail, input)

  if (!email) throw new AuthError('OAuthCallbackError', 'The provider returned no email address, which a new user needs')
  const made = await createUserOrWinner(ctx, {
    id: crypto.randomUUID(),
    email,
    name: input.user.name ?? null,
    image: input.user.image ?? null,
    // A provider trusted to link by email vouches for the address here as in linkByEmail: its account is not one a later proof removes.
    emailVerified: input.emailVerified || input.allowDangerousEmailAccountLinking ? new Date(ctx.now) : null,
  })
  if (!made.created) {
    // A parallel sign-in created this email's user first: from here it is an existing user, under
    // the same rules; through this very account (two links of one address) it is that user's.
    const owner = await adapter.getUserByAccount({ provider: input.account.provider, providerAccountId: input.account.providerAccountId })
    if (owner?.id === made.user.id) return { user: await markVerified(ctx, owner, input), isNewUser: false }
    return linkByEmail(ctx, made.user, input)
  }
  await link(ctx, made.user, { ...input.account, userId: made.user.id }, input.profile)
  return { user: made.user, isNewUser: true }
}

/**
 * Credentials' rule for a user found by address rather than by the id authorize named: its
 * address is unproven, so it may be someone else's passkey registration, and it is nobody's yet.
 */
function vouchedFor(ctx: Context, input: SignInInput, found: AdapterUser): AdapterUser {
  if (found.id !== input.user.id && !found.emailVerified && passkeysOffered(ctx)) {
    throw new AuthError('AccessDenied', 'An account with this email address exists but its address is not proven yet; sign in with an email link first', { status: 403 })
  }
  return found
}

/** The email belongs to an existing user: link only on proof of the address or the provider's say-so. */
async function linkByEmail(ctx: Context, owner: AdapterUser, input: SignInInput): Promise<Resolved> {
  if (!input.emailVerified && !input.allowDangerousEmailAccountLinking) {
    throw new AuthError('OAuthAccountNotLinked', 'Another account already uses this email address; sign in with it first, then link this one', { status: 403 })
  }
  // Either way the address is proven: by the link, or by a provider the app trusts with it.
  const user = await proveAddress(ctx, owner, input.account)
  return { user, isNewUser: false, link: { ...input.account!, userId: user.id } }
}

/** The user with this id, else the one with this address. */
async function findUser(ctx: Context, id: string | undefined, email: string | null): Promise<AdapterUser | null> {
  const adapter = useAdapter(ctx.config, ['getUser', 'getUserByEmail'], 'sign-in')
  return (id ? await adapter.getUser(id) : null) ?? (email ? await adapter.getUserByEmail(email) : null)
}

/**
 * Creates the user, or answers the one a parallel request created first with its id or address
 * (the store keeps one user per email: the adapter's `DuplicateUser`, `DuplicateEmail`), read
 * back: `created` false. Two servers that both found no user both create; the loser goes on with
 * the winner's user, and the caller decides what it may do with it. Any other failure, where no
 * such user exists, is thrown as it came.
 */
export async function createUserOrWinner(ctx: Context, user: Parameters<typeof createUser>[1]): Promise<{ user: AdapterUser; created: boolean }> {
  try {
    return { user: await createUser(ctx, user), created: true }
  } catch (error) {
    const winner = await findUser(ctx, user.id, user.email).catch(() => null)
    if (!winner) throw error
    return { user: winner, created: false }
  }
}

/** Creates a user through the adapter, with `events.createUser`. */
export async function createUser(ctx: Context, user: Omit<Partial<AdapterUser>, 'email'> & { email: string | null }): Promise<AdapterUser> {
  const adapter = useAdapter(ctx.config, ['createUser'], 'sign-up')
  const created = await adapter.createUser({
    id: user.id ?? crypto.randomUUID(),
    email: user.email ?? '',
    emailVerified: user.emailVerified ?? null,
    name: user.name ?? null,
    image: user.image ?? null,
  })
  await ctx.config.events.createUser?.({ user: created })
  return created
}

async function link(ctx: Context, user: AdapterUser, account: AdapterAccount, profile?: Profile): Promise<void> {
  const adapter = useAdapter(ctx.config, ['linkAccount', 'getUserByAccount'], 'account linking')
  try {
    await adapter.linkAccount(account)
  } catch (error) {
    // A parallel sign-in through the same account (two email links of one address) linked it
    // first (`DuplicateAccount`): linked to this user, that is the outcome asked for.
    const owner = await Promise.resolve(adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })).catch(() => null)
    if (owner?.id === user.id) return
    if (owner) throw new AuthError('OAuthAccountNotLinked', 'This account is already linked to another user', { status: 403 })
    throw error
  }
  await ctx.config.events.linkAccount?.({ user, account, profile })
}

/**
 * The account a sign-in that waited for its second factor brought, linked now that it is proven
 * (features/mfa/verify.ts); refused if another user took the account meanwhile.
 */
export async function linkAfterSecondFactor(ctx: Context, user: AdapterUser, account: AdapterAccount): Promise<void> {
  const owner = await useAdapter(ctx.config, ['getUserByAccount'], 'account linking').getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (owner?.id === user.id) return
  if (owner) throw new AuthError('OAuthAccountNotLinked', 'This account is already linked to another user', { status: 403 })
  await link(ctx, user, account)
}

/**
 * A sign-in with an account already linked: its new tokens replace the stored ones and clear a
 * refusal mark (access-token.ts), so signing in again is how a user mends a refused refresh.
 * Only OAuth accounts carry tokens, and only adapters with `updateAccount` can store them.
 */
async function renewTokens(ctx: Context, account: AdapterAccount): Promise<void> {
  const adapter = ctx.config.adapter
  if (!adapter?.updateAccount || (account.type !== 'oauth' && account.type !== 'oidc') || !account.access_token) return
  const { access_token, refresh_token, id_token, scope, token_type, expires_in, expires_at } = account
  await adapter.updateAccount({
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    access_token,
    // A provider that sends no new refresh token on a repeat sign-in keeps the old one valid.
    ...(refresh_token !== undefined && { refresh_token }),
    id_token: id_token ?? null,
    scope: scope ?? null,
    token_type: token_type ?? null,
    expires_in: expires_in ?? null,
    expires_at: expires_at ?? null,
    refresh_error: null,
  })
}

/** `emailVerified` becomes the date of the first email sign-in, and never changes after. */
function markVerified(ctx: Context, user: AdapterUser, input: SignInInput): Promise<AdapterUser> | AdapterUser {
  return input.emailVerified ? proveAddress(ctx, user, input.account) : user
}
