/**
 * `requireSession(auth)`: node, Connect and Express middleware for the app's own routes. Typed
 * with the parts of node's objects it uses; `latchkey/node` exports it with node's own types.
 */
import type { Session } from '../../core/types.js'
import type { GetSession } from './get-session.js'
import type { NodeRequestLike, NodeResponseLike } from './node-like.js'

/** The request after `requireSession`: `req.session` is the signed-in user's session. */
export type RequestWithSession<S extends Session = Session> = NodeRequestLike & { session: S }

type Next = (error?: unknown) => void

/**
 * Sets `req.session` and calls `next()` for a signed-in request (extending a due session on
 * `res`); answers any other `401 { error: 'Unauthorized' }` as JSON, never cached. A failure
 * of the store goes to `next(error)`, or without `next` is a bare 500. The middleware's
 * `session(req)` reads the session back with its type, for frameworks whose request type
 * does not know `req.session`.
 */
export function requireSession<S extends Session>(auth: { getSession: GetSession<S> }) {
  const middleware = (req: NodeRequestLike, res: NodeResponseLike, next?: Next): Promise<void> =>
    auth.getSession(req, res).then(
      (session) => {
        if (!session) return unauthorized(res)
        ;(req as RequestWithSession<S>).session = session
        next?.()
      },
      (error: unknown) => (next ? next(error) : failed(res)),
    )
  return Object.assign(middleware, {
    session(req: object): S {
      const session = (req as Partial<RequestWithSession<S>>).session
      if (!session) throw new Error('latchkey: requireSession did not run before this handler, so the request has no session')
      return session
    },
  })
}

function unauthorized(res: NodeResponseLike): void {
  answerJson(res, 401, '{"error":"Unauthorized"}')
}

function failed(res: NodeResponseLike): void {
  answerJson(res, 500, '{"error":"ServerError"}')
}

/** A small JSON answer, never cached. */
export function answerJson(res: NodeResponseLike, status: number, body: string): void {
  if (res.headersSent) return void res.end()
  res.statusCode = status
  res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('cache-control', 'no-store')
  res.setHeader('x-content-type-options', 'nosniff')
  res.end(body)
}
