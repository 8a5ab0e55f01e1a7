/**
 * Auth.js's database sessions: its adapter stored the cookie's raw token, latchkey stores the
 * SHA-256 of its own. A raw row is found once by the old cookie, then moved to latchkey's form:
 * its token becomes the hash of a new cookie, in one step where the adapter has
 * `replaceSessionToken`, so the raw row is gone and the store holds no cookie.
 *
 * The new cookie is an HMAC of the old under latchkey's secret, so two servers moving the same
 * session at once (two tabs' first reads) hand the browser the same cookie: the one that loses
 * the move finds the row under the token the winner gave it. Sign-out ends both. The new cookie
 * begins with `takenOverPrefix`, so every later read knows the session was signed in elsewhere.
 */
import type { Adapter } from '../../../core/types.js'
import { nextExpiry } from '../../../core/session-rule.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex } from '../../kernel/crypto.js'
import { storedSessionToken, takenOverPrefix } from '../../kernel/session-token.js'
import type { AdoptedSession } from '../../kernel/types.js'

const needs: Array<'getSessionAndUser' | 'createSession' | 'updateSession' | 'deleteSession'> = ['getSessionAndUser', 'createSession', 'updateSession', 'deleteSession']

/**
 * latchkey's own rows sit in the same table under the SHA-256 hex of their cookie (64 hex digits),
 * and nothing in a row tells a hashed token from a raw one where the adapter is Auth.js's (no
 * column of latchkey's): looked up as a raw token, a hash read from a leak of the table would be
 * its owner's session. So no value holding 64 hex digits in a row, in any case, is looked up, nor
 * one with a character outside visible ASCII: some databases compare without case, trailing
 * spaces, accents or width (MySQL's default collations). Auth.js's tokens are UUIDs (`randomUUID`,
 * 32 hex digits in five groups); next-auth 4 falls back to 64 hex digits only where Node has no
 * `randomUUID` (before 14.17), and a custom `generateSessionToken` may make them too: those
 * sessions are not taken over, and their users sign in once.
 */
const storedForm = /[0-9a-f]{64}/i
const visibleAscii = /^[\x21-\x7e]+$/

/** Whether `raw` may be looked up as a raw Auth.js token: never when a store could match it to latchkey's stored form. */
function mayBeRaw(raw: string): boolean {
  return visibleAscii.test(raw) && !storedForm.test(raw)
}

/** The old session under `raw`, moved to latchkey's form (unless `write` is false); null when there is none to read. */
export async function adoptRecord(ctx: Context, raw: string, write: boolean): Promise<AdoptedSession | null> {
  if (!mayBeRaw(raw)) return null
  const adapter = useAdapter(ctx.config, needs, 'taking over Auth.js database sessions')
  const cookie = takenOverPrefix + (await hmacHex(ctx.config.secrets[0], `latchkey took over the Auth.js session ${raw}`))
  const sessionToken = await storedSessionToken(cookie)
  const found = await adapter.getSessionAndUser(raw)
  if (!found) {
    // Moved already, by a request of the same browser that raced this one (two tabs on two
    // servers): the same session, under the same new cookie. Until the window ends, a copy of the
    // old cookie is worth what it was under Auth.js (until sign-out or expiry), and no more.
    return (await adapter.getSessionAndUser(sessionToken)) ? { cookie, sessionToken } : null
  }
  const expires = found.session.expires.getTime()
  // Read as it stands: the session read refuses (and deletes) an expired one as it does latchkey's.
  if (!write) return { cookie: raw, sessionToken: raw }
  if (ctx.now >= expires) {
    await adapter.deleteSession(raw)
    return null
  }
  if (!(await move(adapter, raw, sessionToken, found.session))) return null
  // Never longer than latchkey's own rule allows, where Auth.js's maxAge was longer.
  const longest = nextExpiry(ctx.now, ctx.config.session.maxAge)
  if (expires > longest) await adapter.updateSession({ sessionToken, expires: new Date(longest) })
  return { cookie, sessionToken }
}

/** False when the record went (deleted, or moved and then ended) before this move. */
async function move(adapter: Required<Pick<Adapter, (typeof needs)[number]>> & Adapter, raw: string, sessionToken: string, old: { userId: string; expires: Date }): Promise<boolean> {
  if (typeof adapter.replaceSessionToken === 'function') {
    if (await adapter.replaceSessionToken(raw, sessionToken)) return true
    // Another server moved it first: the row is under the same new token, unless it ended since.
    return (await adapter.getSessionAndUser(sessionToken)) !== null
  }
  // An adapter without the one-step move (Auth.js's own): copy, then delete the raw row. A failure
  // between the two leaves the raw row, which the next read moves again; two servers racing may
  // both write the copy, under the same token, which then reads, extends and ends as one.
  if (!(await adapter.getSessionAndUser(sessionToken))) {
    try {
      await adapter.createSession({ sessionToken, userId: old.userId, expires: old.expires })
    } catch (error) {
      if (!(await adapter.getSessionAndUser(sessionToken))) throw error
    }
  }
  await adapter.deleteSession(raw)
  return true
}

/** Sign-out with the old cookie still held: its raw row goes. */
export async function endRecord(ctx: Context, raw: string): Promise<void> {
  // Nor deleted under latchkey's stored form: a leaked hash would end its owner's session.
  if (!mayBeRaw(raw)) return
  const adapter = useAdapter(ctx.config, ['deleteSession'], 'sign-out')
  await adapter.deleteSession(raw)
}
