/** The node:http binding: `http.createServer(toNodeHandler(Latchkey(config)))`. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { AuthError } from '../core/errors.js'
import type { Incoming } from './context.js'
import { handleIncoming, type Handler, type IncomingHandler } from './latchkey.js'
import { rememberClientAddress } from './rate-limit/client-address.js'
import { bodyAside } from './respond.js'

export function toNodeHandler(handler: Handler) {
  // Latchkey's own handler is entered without building a Web Request; any other takes the Web way.
  const direct = (handler as Handler & { [handleIncoming]?: IncomingHandler })[handleIncoming]
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const response = direct ? await direct(new NodeIncoming(req), true) : await handler(toRequest(req))
      const headers: Record<string, string | string[]> = {}
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') headers[key] = value
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length) headers['set-cookie'] = cookies
      const aside = bodyAside(response)
      if (aside !== undefined) {
        if (req.method !== 'HEAD') headers['content-length'] = String(Buffer.byteLength(aside))
        res.writeHead(response.status, headers)
        res.end(req.method === 'HEAD' ? undefined : aside)
      } else if (response.body && req.method !== 'HEAD') {
        res.writeHead(response.status, headers)
        res.end(Buffer.from(await response.arrayBuffer()))
      } else {
        res.writeHead(response.status, headers)
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
  const request = new Request(requestUrl(req), {
    method: req.method,
    headers: webHeaders(req),
    ...bodyOf(req),
  })
  // For per-client rate limits: a Web Request has no peer address of its own.
  rememberClientAddress(request, req.socket.remoteAddress)
  return request
}

function requestUrl(req: IncomingMessage): URL {
  const secure = 'encrypted' in req.socket && Boolean((req.socket as { encrypted?: boolean }).encrypted)
  const host = req.headers.host ?? 'localhost'
  // Concatenated, not resolved: a request path of "//evil.example/x" must not become the host.
  const path = req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`
  return new URL(`${secure ? 'https' : 'http'}://${host}${path}`)
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key.startsWith(':')) continue
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v))
    else headers.set(key, value)
  }
  return headers
}

function bodyOf(req: IncomingMessage): RequestInit {
  if (req.method === 'GET' || req.method === 'HEAD') return {}
  // @ts-expect-error Node's fetch needs `duplex` to stream a request body
  return { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }
}

/**
 * The request as latchkey reads it, with the Web Request built only if a route asks. What
 * `new Request` would refuse is refused here, before any route runs, as it was when it was built first.
 */
class NodeIncoming implements Incoming {
  readonly method: string
  readonly url: URL
  private web: Request | undefined
  constructor(private readonly req: IncomingMessage) {
    this.url = requestUrl(req)
    this.method = req.method ?? 'GET'
    if (this.url.username || this.url.password || forbiddenMethods.has(this.method)) throw new TypeError('Request cannot be constructed')
  }
  header(name: string): string | null {
    return headerValue(this.req.headers[name])
  }
  request(): Request {
    if (this.web) return this.web
    try {
      this.web = new Request(this.url, { method: this.method, headers: webHeaders(this.req), ...bodyOf(this.req) })
    } catch {
      throw new AuthError('InvalidRequest', 'The request could not be read', { status: 400 })
    }
    rememberClientAddress(this.web, this.req.socket.remoteAddress)
    return this.web
  }
}

const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** What `Headers.get` gives for a value node parsed: each trimmed of HTTP whitespace, repeats joined. */
function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null
  return Array.isArray(value) ? value.map(trimHttp).join(', ') : trimHttp(value)
}

function trimHttp(text: string): string {
  return /^[\t\n\r ]|[\t\n\r ]$/.test(text) ? text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') : text
}
