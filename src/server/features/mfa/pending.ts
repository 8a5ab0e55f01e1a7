/**
 * A sign-in waiting for its second factor. The first factor made no session: it left a short
 * sealed cookie naming the user, the first factor and where the sign-in goes, with a nonce the
 * store holds once (a one-time record), so the pending sign-in completes once and only in the
 * browser that holds the cookie. Its tries are counted in the store (tries.ts).
 */
import type { AdapterAccount } from '../../../core/types.js'
import { clearCookie, setCookie, type Context } from '../../kernel/context.js'
import { randomToken, sha256Hex } from '../../kernel/crypto.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { startTries } from './tries.js'
import { pendingCookie } from './cookies.js'

export { pendingCookie }

export interface Pending {
  /** The user the first factor signed in. */
  userId: string
  /** The first factor's provider, and its account without tokens (for the jwt callback). */
  provider?: string
  account: Pick<AdapterAccount, 'provider' | 'type' | 'providerAccountId'> | null
  /** The account to link to the user once the second factor is proven (sign-in/complete.ts), with its tokens where they fit the cookie. */
  link?: Pick<AdapterAccount, 'provider' | 'type' | 'providerAccountId'> & Partial<AdapterAccount>
  isNewUser: boolean
  /** The sign-in instant to keep (a sign-in that linked over a held session). */
  signedInAt?: number
  /** What the first factor was, as `amr` names it. */
  amr: string[]
  callbackUrl: string
  /** The user has no second factor and must add one before the session (mfa.required, mfa.requireFor). */
  setup?: boolean
  nonce: string
}

const identifier = (nonce: string) => `mfa-pending:${nonce}`

/** Well under the 4096 bytes a browser keeps of a cookie. */
const maxCookieValue = 3800

/** Sets the pending cookie and stores its nonce, for `maxAge` seconds. */
export async function startPending(ctx: Context, pending: Omit<Pending, 'nonce'>, maxAge: number): Promise<void> {
  const nonce = randomToken(16)
  const until = ctx.now + maxAge * 1000
  await storeOneTimeRecord(ctx, { identifier: identifier(nonce), token: await sha256Hex(nonce), expires: new Date(until) }, 'second factors')
  if (!pending.setup) await startTries(ctx, pending.userId, new Date(until))
  const times = { now: Math.floor(ctx.now / 1000), expires: Math.ceil(until / 1000) }
  let value = await seal({ ...pending, nonce }, ctx.config.secrets, pendingCookie.of(ctx), times)
  if (value.length > maxCookieValue && pending.link) {
    // A browser drops a cookie over 4 KB without a word: the account goes without its tokens, which its next sign-in brings.
    const { provider, type, providerAccountId } = pending.link
    value = await seal({ ...pending, link: { provider, type, providerAccountId }, nonce }, ctx.config.secrets, pendingCookie.of(ctx), times)
  }
  setCookie(ctx, pendingCookie.of(ctx), value, { expires: new Date(until) })
}

/** The pending sign-in this browser holds, unexpired; not yet spent. */
export async function readPending(ctx: Context): Promise<Pending | undefined> {
  const raw = ctx.cookies.get(pendingCookie.of(ctx))
  if (!raw) return
  const opened = await unseal<Pending>(raw, ctx.config.secrets, pendingCookie.of(ctx), Math.floor(ctx.now / 1000))
  return opened && typeof opened.userId === 'string' && typeof opened.nonce === 'string' ? opened : undefined
}

/** Spends the pending sign-in: true for the one request that does, false for a replay. */
export async function spendPending(ctx: Context, pending: Pending): Promise<boolean> {
  const adapter = useAdapter(ctx.config, ['useVerificationToken'], 'second factors')
  const record = await adapter.useVerificationToken({ identifier: identifier(pending.nonce), token: await sha256Hex(pending.nonce) })
  clearCookie(ctx, pendingCookie.of(ctx))
  return !!record && record.expires.getTime() > ctx.now
}
