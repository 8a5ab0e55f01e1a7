/**
 * Fresh sessions: actions that must not run on an old session (adding a passkey, ending
 * sessions, an app's "delete my account") need a sign-in within `maxAge` seconds, so a stolen
 * or forgotten session cannot do them without the user proving who they are again.
 */
import { AuthError } from '../core/errors.js'
import type { Session } from '../core/types.js'

/** True when the session's sign-in was at most `maxAgeSeconds` before `now` (ms); unknown sign-in times are not fresh. */
export function isFresh(signedInAt: number | undefined, now: number, maxAgeSeconds: number): boolean {
  return signedInAt !== undefined && now - signedInAt <= maxAgeSeconds * 1000
}

/** The sign-in instant a session JSON carries (`signedInAt`), in ms. */
export function signedInAtOf(session: Session): number | undefined {
  const at = typeof session.signedInAt === 'string' ? Date.parse(session.signedInAt) : NaN
  return Number.isNaN(at) ? undefined : at
}

export function notFresh(maxAgeSeconds: number): AuthError {
  return new AuthError('SessionNotFresh', `This needs a sign-in within the last ${maxAgeSeconds} seconds: sign in again to confirm it is you`, { status: 403 })
}
