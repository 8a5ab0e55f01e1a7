/**
 * Fresh sessions: actions that must not run on an old session (adding a passkey or any other way
 * to sign in, removing one, ending other sessions, an app's "delete my account") need a sign-in
 * within `maxAge` seconds, so a stolen or forgotten session cannot do them without the user
 * proving who they are again.
 */
import { AuthError } from '../../core/errors.js'
import type { Session } from '../../core/types.js'
import type { Context } from './context.js'

/** True when the session's sign-in was at most `maxAgeSeconds` before `now` (ms); unknown sign-in times are not fresh. */
export function isFresh(signedInAt: number | undefined, now: number, maxAgeSeconds: number): boolean {
  return signedInAt !== undefined && now - signedInAt <= maxAgeSeconds * 1000
}

/** The sign-in instant a session JSON carries (`signedInAt`), in ms. */
export function signedInAtOf(session: Session): number | undefined {
  const at = typeof session.signedInAt === 'string' ? Date.parse(session.signedInAt) : NaN
  return Number.isNaN(at) ? undefined : at
}

/**
 * The one guard of every action that adds, removes or ends a way into the account: throws
 * `SessionNotFresh` (403) unless the session's sign-in (ms) is within `session.freshAge`.
 */
export function requireFresh(ctx: Context, signedInAt: number | undefined): void {
  const { freshAge } = ctx.config.session
  if (!isFresh(signedInAt, ctx.now, freshAge)) {
    throw new AuthError('SessionNotFresh', `This needs a sign-in within the last ${freshAge} seconds: sign in again to confirm it is you`, { status: 403 })
  }
}
