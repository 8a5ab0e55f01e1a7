/** The node:http binding: `http.createServer(toNodeHandler(Latchkey(config)))`. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { handleIncoming, mountTarget, type Handler, type IncomingHandler, type MountTarget } from '../server/latchkey.js'
import { rememberClientAddress } from '../server/kernel/rate-limit/client-address.js'
import { reportNodeBinding } from '../server/kernel/instances.js'
import { bodyOf, NodeIncoming, requestUrl, webHeaders } from './incoming.js'
import { jsonHeaders, type Reply } from '../server/kernel/respond.js'
import { readMount } from './mount.js'

/**
 * `http.createServer(toNodeHandler(auth))`, or under Express or Connect: `app.use('/auth',
 * toNodeHandler(auth))` works too, since the path the framework strips is read back from `req.originalUrl`.
 */
export function toNodeHandler(handler: Handler) {
  const own = handler as Handler & { [handleIncoming]?: IncomingHandler; [mountTarget]?: MountTarget }
  reportNodeBinding(handler)
  // Latchkey's own handler is entered without building a Web Request; any other takes the Web way.
  const direct = own[handleIncoming]
  const target = own[mountTarget]
  if (!direct) {
    return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      try {
        await writeResponse(req, res, await handler(toRequest(req)))
      } catch {
        unreadable(res)
      }
    }
  }
  let reported = false
  // Not `async`: one promise step from the route's answer to the write.
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const mount = readMount(req, target)
    if (mount.misplaced !== null) {
      // Said once in the log, and to every request, which could otherwise only read "Expected a path under".
      if (!reported) target!.report(mount.misplaced)
      reported = true
      res.writeHead(404, { ...jsonHeaders })
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ error: 'Configuration', message: mount.misplaced }))
      return Promise.resolve()
    }
    let incoming: NodeIncoming
    try {
      incoming = new NodeIncoming(mount.req)
    } catch {
      return Promise.resolve(unreadable(res))
    }
    return direct(incoming).then(
      (reply) => writeReply(req, res, reply),
      () => unreadable(res),
    )
  }
}

function unreadable(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(400, { ...jsonHeaders })
  res.end(JSON.stringify({ error: 'InvalidRequest', message: 'The request could not be read' }))
}

function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | string[]> = reply.headers
  if (reply.cookies.length) headers['set-cookie'] = reply.cookies
  const body = req.method === 'HEAD' ? null : reply.body
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(reply.status, headers)
  res.end(body ?? undefined)
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers['set-cookie'] = cookies
  res.writeHead(response.status, headers)
  res.end(response.body && req.method !== 'HEAD' ? Buffer.from(await response.arrayBuffer()) : undefined)
}

/**
 * Builds a Web `Request`; the origin comes from the Host header unless the config sets `origin`,
 * the path from `req.originalUrl` where Express or Connect stripped a mount path from `req.url`.
 */
export function toRequest(req: IncomingMessage): Request {
  const request = new Request(requestUrl(readMount(req, undefined).req), {
    method: req.method,
    headers: webHeaders(req),
    ...bodyOf(req),
  })
  // For per-client rate limits: a Web Request has no peer address of its own.
  rememberClientAddress(request, req.socket.remoteAddress)
  return request
}
