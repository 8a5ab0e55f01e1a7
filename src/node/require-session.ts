/** `requireSession(auth)`: node, Connect and Express middleware for the app's own routes. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Session } from '../core/types.js'
import { answerJson, getSession, type Auth, type RequestWithSession } from './session.js'

type Next = (error?: unknown) => void

/** Middleware that also reads the session back, typed: `guard.session(req)`. */
export type SessionMiddleware<S extends Session> = ((req: IncomingMessage, res: ServerResponse, next?: Next) => Promise<void>) & {
  session(req: object): S
}

/**
 * Sets `req.session` and calls `next()` for a signed-in request (extending a due session on
 * `res`); answers any other `401 { error: 'Unauthorized' }` as JSON, never cached. A failure
 * of the store goes to `next(error)`, or without `next` is a bare 500. The middleware's
 * `session(req)` reads the session back with its type, for frameworks whose request type
 * does not know `req.session`.
 */
export function requireSession<S extends Session>(auth: Auth<S>): SessionMiddleware<S> {
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: Next): Promise<void> =>
    getSession(auth, req, res).then(
      (session) => {
        if (!session) return answerJson(res, 401, '{"error":"Unauthorized"}')
        ;(req as RequestWithSession<S>).session = session
        next?.()
      },
      (error: unknown) => (next ? next(error) : answerJson(res, 500, '{"error":"ServerError"}')),
    )
  return Object.assign(middleware, {
    session(req: object): S {
      const session = (req as Partial<RequestWithSession<S>>).session
      if (!session) throw new Error('latchkey: requireSession did not run before this handler, so the request has no session')
      return session
    },
  })
}
