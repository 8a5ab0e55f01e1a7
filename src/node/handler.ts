/** The node:http binding: `http.createServer(toNodeHandler(Latchkey(config)))`. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { handleIncoming, type Handler, type IncomingHandler } from '../server/latchkey.js'
import { rememberClientAddress } from '../server/features/rate-limit/client-address.js'
import { bodyOf, NodeIncoming, requestUrl, webHeaders } from '../server/node-incoming.js'
import { jsonHeaders, type Reply } from '../server/kernel/respond.js'

export function toNodeHandler(handler: Handler) {
  // Latchkey's own handler is entered without building a Web Request; any other takes the Web way.
  const direct = (handler as Handler & { [handleIncoming]?: IncomingHandler })[handleIncoming]
  if (!direct) {
    return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      try {
        await writeResponse(req, res, await handler(toRequest(req)))
      } catch {
        unreadable(res)
      }
    }
  }
  // Not `async`: one promise step from the route's answer to the write.
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let incoming: NodeIncoming
    try {
      incoming = new NodeIncoming(req)
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

/** Builds a Web `Request`; the origin comes from the Host header unless the config sets `origin`. */
export function toRequest(req: IncomingMessage): Request {
  const request = new Request(requestUrl(req), {
    method: req.method,
    headers: webHeaders(req),
    ...bodyOf(req),
  })
  // For per-client rate limits: a Web Request has no peer address of its own.
  rememberClientAddress(request, req.socket.remoteAddress)
  return request
}
