/**
 * "Confirm it's you": a sign-in sent with `confirm=true` must sign in the user who is signed in
 * now, and otherwise changes nothing (no new user, no link, no session). It is how a stale
 * session becomes fresh again for a sensitive action. Sign-ins that finish in the same request
 * (credentials, passkeys) carry the flag in their body; those that leave the site first (OAuth,
 * an email link) carry it in a short sealed cookie naming the user, set where they start.
 */
import type { AdapterAccount, User } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import type { Body } from '../kernel/body.js'
import { useAdapter } from '../kernel/adapter-methods.js'
import { clearCookie, setCookie, type Context } from '../kernel/context.js'
import { seal, unseal } from '../kernel/jwt.js'
import { readSession } from '../kernel/session.js'
import { requestKey } from '../kernel/state.js'
import { cookieKey } from '../kernel/cookies.js'

/** A confirming sign-in that left the site: the user it must sign in, sealed. */
export const confirmCookie = cookieKey('confirm')

/** What a sign-in would sign in with: the part of the completion step's input (complete.ts) that names the user. */
interface Attempt {
  user: User
  account: AdapterAccount | null
  emailVerified?: boolean
}

/** A `confirm=true` sign-in finishing in this request (credentials, passkeys): the user it must sign in. */
const confirming = requestKey<string>('the user this sign-in confirms')

/** How long a confirmation that left the site may take to come back. */
const lifetimeMs = 15 * 60_000

/** Notes a `confirm=true` sign-in: for this request, or, when it leaves the site, in the cookie. */
export async function noteConfirm(ctx: Context, body: Body, leavesSite: boolean): Promise<void> {
  if (body.confirm !== 'true' && body.confirm !== true) return
  const read = await readSession(ctx)
  const userId = read.user?.id ?? read.token?.sub ?? read.session?.user.id
  if (!userId) throw new AuthError('AccessDenied', 'Confirming who you are needs a signed-in user; sign in instead', { status: 401 })
  if (!leavesSite) {
    confirming.set(ctx, userId)
    return
  }
  const until = ctx.now + lifetimeMs
  const value = await seal({ u: userId }, ctx.config.secrets, confirmCookie.of(ctx), { now: Math.floor(ctx.now / 1000), expires: Math.ceil(until / 1000) })
  setCookie(ctx, confirmCookie.of(ctx), value, { expires: new Date(until) })
}

/** Refuses a confirming sign-in that would sign in anyone but the user it confirms; call before anything is written. */
export async function checkConfirm(ctx: Context, input: Attempt): Promise<void> {
  let target = confirming.find(ctx)
  const raw = ctx.cookies.get(confirmCookie.of(ctx))
  if (raw !== undefined) {
    clearCookie(ctx, confirmCookie.of(ctx))
    const payload = await unseal<{ u?: unknown }>(raw, ctx.config.secrets, confirmCookie.of(ctx), Math.floor(ctx.now / 1000))
    if (target === undefined && typeof payload?.u === 'string') target = payload.u
  }
  if (target === undefined) return
  if ((await whoWouldSignIn(ctx, input)) !== target) {
    throw new AuthError('AccessDenied', 'Confirming is for the account signed in now; this sign-in belongs to another account or to none', { status: 403 })
  }
}

/** The stored user this sign-in would resolve to, without writing anything; undefined for a new one. */
async function whoWouldSignIn(ctx: Context, input: Attempt): Promise<string | undefined> {
  if (!ctx.config.adapter) return input.user.id
  const adapter = useAdapter(ctx.config, ['getUser', 'getUserByEmail', 'getUserByAccount'], 'confirming a sign-in')
  const email = input.user.email ?? undefined
  if (!input.account) {
    const byId = input.user.id ? await adapter.getUser(input.user.id) : null
    return (byId ?? (email ? await adapter.getUserByEmail(email) : null))?.id
  }
  const owner = await adapter.getUserByAccount({ provider: input.account.provider, providerAccountId: input.account.providerAccountId })
  if (owner) return owner.id
  return input.emailVerified && email ? (await adapter.getUserByEmail(email))?.id : undefined
}
