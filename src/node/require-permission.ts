/** `requirePermission(auth, permission)`: `requireSession` for routes that need a permission in the active organization. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Session } from '../core/types.js'
import { requireSession, type SessionMiddleware } from './require-session.js'
import { answerJson, type Auth } from './session.js'

/**
 * As `requireSession`, and a session that may not do `permission` (`auth.permits`: the
 * organizations plugin asks the member's role in the session's active organization) gets
 * `403 { error: 'Forbidden', permission }`. Signed out: `401 { error: 'Unauthorized' }`.
 */
export function requirePermission<S extends Session>(auth: Auth<S> & { permits(session: Session | null, permission: string): boolean }, permission: string): SessionMiddleware<S> {
  const signedIn = requireSession(auth)
  const middleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> =>
    signedIn(req, res, (error?: unknown) => {
      if (error) return next ? next(error) : undefined
      let allowed: boolean
      try {
        allowed = auth.permits(signedIn.session(req), permission)
      } catch (failure) {
        return next ? next(failure) : answerJson(res, 500, '{"error":"ServerError"}')
      }
      if (allowed) return next?.()
      answerJson(res, 403, JSON.stringify({ error: 'Forbidden', permission }))
    })
  return Object.assign(middleware, { session: signedIn.session })
}
