/**
 * The session in a node:http (Connect, Express) app, typed with node's own request and response.
 * Each reads it through `auth.getSession` with a Web Request built from node's request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Session } from '../core/types.js'
import type { GetSession } from '../server/app/get-session.js'
import { readIncomingSession, type ReadSession } from '../server/latchkey.js'
import { headersRequest, NodeIncoming } from './incoming.js'

/** The request after `requireSession`: `req.session` is the signed-in user's session. */
export type RequestWithSession<S extends Session = Session> = IncomingMessage & { session: S }

export type Auth<S extends Session> = { getSession: GetSession<S>; [readIncomingSession]?: ReadSession<S> }

/**
 * What GET /session answers for this request. Given `res`, a due session is extended and a gone
 * one cleared there, with the `Latchkey-Session` header the service worker reads. A request
 * latchkey cannot read (untrusted Host, malformed URL) has no session.
 */
export async function getSession<S extends Session>(auth: Auth<S>, req: IncomingMessage, res?: ServerResponse): Promise<S | null> {
  // Latchkey's own handler reads node's request as it is; any other `auth` gets a Web Request.
  const direct = auth[readIncomingSession]
  let request: Request | NodeIncoming
  try {
    request = direct ? new NodeIncoming(req) : headersRequest(req)
  } catch {
    return null
  }
  const read = (direct ?? auth.getSession) as ReadSession<S>
  if (!res) return read(request)
  const headers = new Headers()
  const session = await read(request, headers)
  deliver(headers, res)
  return session
}

/** The cookies and headers the read set, onto node's response, after any cookies already there. */
function deliver(headers: Headers, res: ServerResponse): void {
  if (res.headersSent) return
  const cookies = headers.getSetCookie()
  if (cookies.length) {
    const before = res.getHeader('set-cookie')
    const list = before === undefined ? [] : Array.isArray(before) ? before : [String(before)]
    res.setHeader('set-cookie', [...list, ...cookies])
  }
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value)
  })
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
      session = await getSession(auth, req, res)
    } catch {
      return answerJson(res, 500, '{"error":"ServerError"}')
    }
    if (!session) return answerJson(res, 401, '{"error":"Unauthorized"}')
    await handler(req, res, session)
  }
}

/** A small JSON answer, never cached. */
export function answerJson(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) return void res.end()
  res.statusCode = status
  res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('cache-control', 'no-store')
  res.setHeader('x-content-type-options', 'nosniff')
  res.end(body)
}
