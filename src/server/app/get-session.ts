/** `auth.getSession(request, response?)`: the session of a request to the app's own routes. */
import type { Session } from '../../core/types.js'
import type { ResolvedConfig } from '../kernel/config.js'
import { contextFor, WebIncoming, type Context, type Incoming } from '../kernel/context.js'
import { NodeIncoming } from '../node-incoming.js'
import type { NodeRequestLike, NodeResponseLike } from './node-like.js'
import { publicOrigin } from '../kernel/public-origin.js'
import { sessionAnswer } from '../routes/session.js'
import { timingHeader } from '../../core/session-rule.js'
import { challengeHeaderName } from '../features/dbsc/registration.js'

/** Where `getSession` may append the Set-Cookie and timing headers of an extended or cleared session. */
export type SessionResponse = Headers | NodeResponseLike

export interface GetSession<S extends Session = Session> {
  (request: Request, response?: Headers): Promise<S | null>
  /**
   * @deprecated A node request: use `getSession(auth, req, res)` from `latchkey/node`. This form
   * leaves `auth.getSession` in the next minor version.
   */
  (request: Request | NodeRequestLike, response?: SessionResponse): Promise<S | null>
}

/** The session type of an `auth` object: `SessionOf<typeof auth>`. */
export type SessionOf<A> = A extends { getSession: GetSession<infer S> } ? S : never

/**
 * Answers what GET /session would for this request (after the `session` callback), with one
 * adapter call. Given a `response` (node's ServerResponse, or the Headers of a Web Response
 * still to be built), a due session is extended and a gone one cleared there, with the
 * `Latchkey-Session` header the service worker reads. Without one nothing is extended: the
 * session is answered as it stands, so call it with the response on routes the app uses often.
 * A request latchkey cannot read (untrusted Host, malformed URL) has no session.
 */
export function createGetSession<S extends Session>(config: ResolvedConfig): GetSession<S> {
  return async (request: Request | NodeRequestLike, response?: SessionResponse) => {
    const ctx = contextOf(request, config)
    if (!ctx) return null
    const { session } = await sessionAnswer(ctx, response !== undefined)
    if (response) deliver(ctx, response)
    return session as S | null
  }
}

/** The context of a request to the app, or null when latchkey cannot read it. */
export function contextOf(request: Request | NodeRequestLike, config: ResolvedConfig): Context | null {
  let incoming: Incoming
  try {
    incoming = isWebRequest(request) ? new WebIncoming(request) : new NodeIncoming(request)
  } catch {
    return null
  }
  const origin = publicOrigin(config.originRule, incoming)
  return origin === null ? null : contextFor(incoming, config, origin)
}

function isWebRequest(request: Request | NodeRequestLike): request is Request {
  return typeof (request as Request).headers?.get === 'function'
}

const timingName = timingHeader.toLowerCase()

/** Duck-typed: a runtime may have more than one Headers class. */
function isHeaders(response: SessionResponse): response is Headers {
  return typeof (response as NodeResponseLike).setHeader !== 'function'
}

/** The cookies and timing header the read set, onto the app's response. */
function deliver(ctx: Context, response: SessionResponse): void {
  const timing = ctx.headers[timingName]
  const challenge = ctx.headers[challengeHeaderName]
  if (isHeaders(response)) {
    for (const cookie of ctx.setCookies) response.append('set-cookie', cookie)
    if (timing !== undefined) response.set(timingHeader, timing)
    if (challenge !== undefined) response.set(challengeHeaderName, challenge)
    return
  }
  if (response.headersSent) return
  if (ctx.setCookies.length) {
    const before = response.getHeader('set-cookie')
    const list = before === undefined ? [] : Array.isArray(before) ? before : [String(before)]
    response.setHeader('set-cookie', [...list, ...ctx.setCookies])
  }
  if (timing !== undefined) response.setHeader(timingHeader, timing)
  if (challenge !== undefined) response.setHeader(challengeHeaderName, challenge)
}
