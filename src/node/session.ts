/**
 * The session in a node:http (Connect, Express) app, typed with node's own request and response.
 * The same code as `latchkey/server`'s forms, which need no @types/node.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Session } from '../core/types.js'
import type { GetSession } from '../server/app/get-session.js'
import { requireFreshSession as freshGuard } from '../server/app/require-fresh-session.js'
import { answerJson, requireSession as sessionGuard } from '../server/app/require-session.js'

/** The request after `requireSession`: `req.session` is the signed-in user's session. */
export type RequestWithSession<S extends Session = Session> = IncomingMessage & { session: S }

type Next = (error?: unknown) => void
type Auth<S extends Session> = { getSession: GetSession<S> }

/** Middleware that also reads the session back, typed: `guard.session(req)`. */
export type SessionMiddleware<S extends Session> = ((req: IncomingMessage, res: ServerResponse, next?: Next) => Promise<void>) & {
  session(req: object): S
}

/**
 * What GET /session answers for this request. Given `res`, a due session is extended and a gone
 * one cleared there, with the `Latchkey-Session` header the service worker reads.
 */
export function getSession<S extends Session>(auth: Auth<S>, req: IncomingMessage, res?: ServerResponse): Promise<S | null> {
  return auth.getSession(req, res)
}

/** Sets `req.session` and calls `next()`, or answers `401 { error: 'Unauthorized' }` (see latchkey/server's notes). */
export function requireSession<S extends Session>(auth: Auth<S>): SessionMiddleware<S> {
  return sessionGuard(auth)
}

/** As `requireSession`, and a sign-in older than `maxAgeSeconds` (default `session.freshAge`) gets `403 { error: 'SessionNotFresh' }`. */
export function requireFreshSession<S extends Session>(
  auth: Auth<S> & { isFresh(session: Session, maxAgeSeconds?: number): boolean },
  maxAgeSeconds?: number,
): SessionMiddleware<S> {
  return freshGuard(auth, maxAgeSeconds)
}

/**
 * A node handler that runs only for a signed-in request: `handler(req, res, session)`; any other
 * gets `401 { error: 'Unauthorized' }`, and a failing store a 500. The handler's own failure is the caller's.
 */
export function withSession<S extends Session>(
  auth: Auth<S>,
  handler: (req: IncomingMessage, res: ServerResponse, session: S) => unknown,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    let session: S | null
    try {
      session = await auth.getSession(req, res)
    } catch {
      return answerJson(res, 500, '{"error":"ServerError"}')
    }
    if (!session) return answerJson(res, 401, '{"error":"Unauthorized"}')
    await handler(req, res, session)
  }
}
