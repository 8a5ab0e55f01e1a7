/** `auth.getSession(request, response?)`: the session of a request to the app's own routes. */
import type { Session } from '../../core/types.js'
import type { ResolvedConfig } from '../kernel/config.js'
import { contextOf, type Context, type Incoming } from '../kernel/context.js'
import { sessionAnswer } from '../routes/session.js'
import { timingHeader } from '../../core/session-rule.js'

/** A Web `Request` only: `latchkey/node`'s `getSession(auth, req, res)` reads a node request through `ReadSession`. */
export interface GetSession<S extends Session = Session> {
  (request: Request, response?: Headers): Promise<S | null>
}

/** The same read over the kernel's `Incoming` too, which node's request implements without building a Web one. */
export type ReadSession<S extends Session = Session> = (request: Request | Incoming, response?: Headers) => Promise<S | null>

/** The session type of an `auth` object: `SessionOf<typeof auth>`. */
export type SessionOf<A> = A extends { getSession: GetSession<infer S> } ? S : never

/**
 * Answers what GET /session would for this request (after the `session` callback), with one
 * adapter call. Given a `response` (the Headers of a Web Response still to be built), a due
 * session is extended and a gone one cleared there, with the `Latchkey-Session` header the
 * service worker reads. Without one nothing is extended: the
 * session is answered as it stands, so call it with the response on routes the app uses often.
 * A request latchkey cannot read (untrusted Host, malformed URL) has no session.
 */
export function createGetSession<S extends Session>(config: ResolvedConfig): ReadSession<S> {
  return async (request, response) => {
    const ctx = contextOf(request, config)
    if (!ctx) return null
    const { session } = await sessionAnswer(ctx, response !== undefined)
    if (response) deliver(ctx, response)
    return session as S | null
  }
}


const timingName = timingHeader.toLowerCase()

/** The cookies and timing header the read set, onto the app's response. */
function deliver(ctx: Context, response: Headers): void {
  const timing = ctx.headers[timingName]
  // A bound session's device challenge (features/dbsc), under the name the binding gives.
  const challengeName = ctx.config.binding?.challengeHeader
  const challenge = challengeName === undefined ? undefined : ctx.headers[challengeName]
  for (const cookie of ctx.setCookies) response.append('set-cookie', cookie)
  if (timing !== undefined) response.set(timingHeader, timing)
  if (challengeName !== undefined && challenge !== undefined) response.set(challengeName, challenge)
}
