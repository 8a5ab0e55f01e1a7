/** `withSession(auth, handler)`: the same guard for fetch-style runtimes (Hono, Bun, Deno, Workers). */
import type { Session } from '../../core/types.js'
import { timingHeader } from '../../core/session-rule.js'
import type { GetSession } from './get-session.js'

/**
 * Calls `handler(request, session, ...rest)` for a signed-in request and answers any other
 * `401 { error: 'Unauthorized' }` as JSON, never cached. The cookie of an extended (or
 * cleared) session, and its `Latchkey-Session` header, are added to whatever is answered.
 */
export function withSession<S extends Session, Rest extends unknown[]>(
  auth: { getSession: GetSession<S> },
  handler: (request: Request, session: S, ...rest: Rest) => Response | Promise<Response>,
) {
  return async (request: Request, ...rest: Rest): Promise<Response> => {
    const headers = new Headers()
    const session = await auth.getSession(request, headers)
    if (!session) {
      headers.set('content-type', 'application/json; charset=utf-8')
      headers.set('cache-control', 'no-store')
      headers.set('x-content-type-options', 'nosniff')
      return new Response('{"error":"Unauthorized"}', { status: 401, headers })
    }
    const response = await handler(request, session, ...rest)
    const cookies = headers.getSetCookie()
    const timing = headers.get(timingHeader)
    if (!cookies.length && timing === null) return response
    // A Response from fetch() has immutable headers: answer a copy that carries ours too.
    const out = new Response(response.body, response)
    for (const cookie of cookies) out.headers.append('set-cookie', cookie)
    if (timing !== null) out.headers.set(timingHeader, timing)
    return out
  }
}
