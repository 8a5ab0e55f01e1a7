/** `requireFreshSession(auth, maxAgeSeconds)`: `requireSession` for actions that need a recent sign-in. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Session } from '../core/types.js'
import { requireSession, type SessionMiddleware } from './require-session.js'
import { answerJson, type Auth } from './session.js'

/**
 * As `requireSession`, and a session whose sign-in is older than `maxAgeSeconds` (default
 * `session.freshAge`) gets `403 { error: 'SessionNotFresh' }`: the browser signs the same user in
 * again (`<latchkey-signin confirm>`) and retries. Reads `session.signedInAt`, so a `session`
 * callback that builds a new object must keep it (spread the session it is given).
 */
export function requireFreshSession<S extends Session>(
  auth: Auth<S> & { isFresh(session: Session, maxAgeSeconds?: number): boolean },
  maxAgeSeconds?: number,
): SessionMiddleware<S> {
  const signedIn = requireSession(auth)
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> =>
    signedIn(req, res, (error?: unknown) => {
      if (error) return next ? next(error) : undefined
      if (auth.isFresh(signedIn.session(req), maxAgeSeconds)) return next?.()
      answerJson(res, 403, '{"error":"SessionNotFresh"}')
    })
  return Object.assign(middleware, { session: signedIn.session })
}
