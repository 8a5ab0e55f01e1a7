/** `withPermission(auth, permission, handler)`: `withSession` for routes that need a permission in the active organization. */
import type { Session } from '../../core/types.js'
import type { GetSession } from './get-session.js'
import { withSession } from './with-session.js'

/**
 * As `withSession`, and a session that may not do `permission` (`auth.permits`) gets
 * `403 { error: 'Forbidden', permission }` as JSON, never cached; signed out, 401.
 */
export function withPermission<S extends Session, Rest extends unknown[]>(
  auth: { getSession: GetSession<S>; permits(session: Session | null, permission: string): boolean },
  permission: string,
  handler: (request: Request, session: S, ...rest: Rest) => Response | Promise<Response>,
) {
  return withSession(auth, (request: Request, session: S, ...rest: Rest) => {
    if (auth.permits(session, permission)) return handler(request, session, ...rest)
    return new Response(JSON.stringify({ error: 'Forbidden', permission }), {
      status: 403,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    })
  })
}
