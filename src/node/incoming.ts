/**
 * Node's IncomingMessage as latchkey reads it (the server's Web-shaped `Incoming`), with the Web
 * Request built only when a route asks. Typed structurally, so a request seen through a mount
 * (mount.ts) fits too.
 */
import { AuthError } from '../core/errors.js'
import type { Incoming } from '../server/kernel/context.js'
import { rememberClientAddress } from '../server/kernel/rate-limit/client-address.js'
import type { NodeRequestLike } from './node-like.js'

export function requestUrl(req: NodeRequestLike): URL {
  const host = req.headers.host ?? 'localhost'
  // Concatenated, not resolved: a request path of "//evil.example/x" must not become the host.
  const path = req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`
  return new URL(`${schemeOf(req)}://${host}${path}`)
}

export function schemeOf(req: NodeRequestLike): 'http' | 'https' {
  return req.socket.encrypted ? 'https' : 'http'
}

/**
 * A path the URL parser would give back unchanged: segments of letters, digits, `_`, `~`, `-` and
 * inner dots, so no dot segments, escapes, empty segments or query.
 */
const plainPath = /^(?:\/[\w~-]+(?:\.[\w~-]+)*)*\/?$/

/** Origins by scheme and Host header, each read once by the URL parser; bounded, since clients choose the header. */
const origins = new Map<string, string | null>()

/** The origin of `scheme://host/`, or null when the URL parser reads more than an origin into it. */
function originOf(scheme: string, host: string): string | null {
  const key = `${scheme}://${host}`
  let origin = origins.get(key)
  if (origin !== undefined) return origin
  try {
    const url = new URL(`${key}/`)
    origin = url.username || url.password || url.href !== `${url.origin}/` ? null : url.origin
  } catch {
    origin = null
  }
  if (origins.size >= 64) origins.clear()
  origins.set(key, origin)
  return origin
}

export function webHeaders(req: NodeRequestLike): Headers {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key.startsWith(':')) continue
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v))
    else headers.set(key, value)
  }
  return headers
}

export function bodyOf(req: NodeRequestLike): RequestInit {
  if (req.method === 'GET' || req.method === 'HEAD') return {}
  // @ts-expect-error Node's fetch needs `duplex` to stream a request body
  return { body: bodyStream(req), duplex: 'half' }
}

/** The request body as a Web stream, read from node's stream as the reader pulls. */
function bodyStream(req: NodeRequestLike): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel() {
      await chunks.return?.()
    },
  })
}

/**
 * The request as latchkey reads it, with the Web Request built only if a route asks. What
 * `new Request` would refuse is refused here, before any route runs, as it was when it was built first.
 */
export class NodeIncoming implements Incoming {
  readonly method: string
  readonly pathname: string
  readonly origin: string
  private parsed: URL | undefined
  private web: Request | undefined
  constructor(private readonly req: NodeRequestLike) {
    this.method = req.method ?? 'GET'
    if (forbiddenMethods.has(this.method)) throw new TypeError('Request cannot be constructed')
    // A plain path under a known Host is taken as it is; anything else goes through the URL parser.
    const path = req.url ?? ''
    const origin = path.startsWith('/') && plainPath.test(path) ? originOf(schemeOf(req), req.headers.host ?? 'localhost') : null
    if (origin !== null) {
      this.origin = origin
      this.pathname = path
      return
    }
    const url = requestUrl(req)
    if (url.username || url.password) throw new TypeError('Request cannot be constructed')
    this.parsed = url
    this.origin = url.origin
    this.pathname = url.pathname
  }
  get url(): URL {
    return (this.parsed ??= new URL(this.origin + this.pathname))
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
  return isHttpSpace(text.charCodeAt(0)) || isHttpSpace(text.charCodeAt(text.length - 1)) ? text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') : text
}

function isHttpSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13
}

/**
 * The request's method, URL and headers as a Web Request, with no body: what a session read
 * needs. Node's stream is left unread for the app's own body parser. Throws where `new Request` would.
 */
export function headersRequest(req: NodeRequestLike): Request {
  const request = new Request(requestUrl(req), { method: req.method, headers: webHeaders(req) })
  rememberClientAddress(request, req.socket.remoteAddress)
  return request
}
