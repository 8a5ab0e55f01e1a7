/** The node:http binding: `http.createServer(toNodeHandler(Latchkey(config)))`. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { Handler } from './latchkey.js'
import { rememberClientAddress } from './rate-limit/client-address.js'

export function toNodeHandler(handler: Handler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const response = await handler(toRequest(req))
      const headers: Record<string, string | string[]> = {}
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') headers[key] = value
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length) headers['set-cookie'] = cookies
      res.writeHead(response.status, headers)
      if (response.body && req.method !== 'HEAD') {
        const body = Buffer.from(await response.arrayBuffer())
        res.end(body)
      } else {
        res.end()
      }
    } catch {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'InvalidRequest', message: 'The request could not be read' }))
    }
  }
}

/** Builds a Web `Request`; the origin comes from the Host header unless the config sets `origin`. */
export function toRequest(req: IncomingMessage): Request {
  const secure = 'encrypted' in req.socket && Boolean((req.socket as { encrypted?: boolean }).encrypted)
  const host = req.headers.host ?? 'localhost'
  // Concatenated, not resolved: a request path of "//evil.example/x" must not become the host.
  const path = req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`
  const url = new URL(`${secure ? 'https' : 'http'}://${host}${path}`)
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key.startsWith(':')) continue
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v))
    else headers.set(key, value)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    // @ts-expect-error Node's fetch needs this to stream a request body
    duplex: hasBody ? 'half' : undefined,
  })
  // For per-client rate limits: a Web Request has no peer address of its own.
  rememberClientAddress(request, req.socket.remoteAddress)
  return request
}
