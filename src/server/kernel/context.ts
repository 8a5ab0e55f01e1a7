/** Per-request state: the parsed request, the resolved configuration, and what the response will carry. */
import { cookieNames, parseCookies, serializeCookie, type CookieNames, type CookieOptions } from './cookies.js'
import { formatTiming, timing as makeTiming, timingHeader } from '../../core/session-rule.js'
import type { Context, Incoming, ResolvedConfig } from './types.js'
import { AuthError } from '../../core/errors.js'
import { publicOrigin } from './public-origin.js'
import { askedForJson } from './body.js'

export type { Context, Incoming } from './types.js'

/** A context for a Web Request whose Host is trusted; throws `UntrustedHost` otherwise. */
export function createContext(request: Request, config: ResolvedConfig): Context {
  const incoming = new WebIncoming(request)
  const origin = publicOrigin(config.originRule, incoming)
  if (origin === null) throw new AuthError('UntrustedHost', untrustedHostMessage)
  return contextFor(incoming, config, origin)
}

export const untrustedHostMessage =
  "The request's Host is not this app's origin. Set `origin` (or AUTH_URL) to the app's public origin, or `trustHost: true` on a platform that sets Host itself."

/** A class, not an object of closures: one allocation per request. */
export class WebIncoming implements Incoming {
  readonly method: string
  readonly pathname: string
  readonly origin: string
  private readonly headers: Headers
  private parsed: URL | undefined
  constructor(private readonly web: Request) {
    this.method = web.method
    this.headers = web.headers
    const href = web.url
    // The Request has parsed and serialized its URL already. For http(s) the serialization is
    // `scheme://host[:port]/path[?query][#fragment]`, without credentials (a Request refuses
    // them), so the origin and path are slices of it and the URL is parsed again only on demand.
    const scheme = href.startsWith('https://') ? 8 : href.startsWith('http://') ? 7 : 0
    const slash = scheme ? href.indexOf('/', scheme) : -1
    if (slash < 0) {
      this.parsed = new URL(href)
      this.pathname = this.parsed.pathname
      this.origin = this.parsed.origin
      return
    }
    this.origin = href.slice(0, slash)
    const query = href.indexOf('?', slash)
    const fragment = href.indexOf('#', slash)
    const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment)
    this.pathname = end < 0 ? href.slice(slash) : href.slice(slash, end)
  }
  get url(): URL {
    return (this.parsed ??= new URL(this.web.url))
  }
  header(name: string): string | null {
    return this.headers.get(name)
  }
  request(): Request {
    return this.web
  }
}

/** `origin` is the request's public origin, from `publicOrigin`. */
export function contextFor(incoming: Incoming, config: ResolvedConfig, origin: string): Context {
  return new RequestContext(incoming, config, origin)
}

/** A class, so the lazy `request` getter lives on the prototype and each context is a plain fast object. */
class RequestContext implements Context {
  secure: boolean
  cookies: Map<string, string>
  names: CookieNames
  /** The clock reading for this request, in milliseconds. */
  now: number
  setCookies: string[] = []
  /** Headers the response carries beside the route's own, by lower-case name; respond.ts adds them. */
  headers: Record<string, string> = {}
  /** Made on first use (state.ts): most requests (a session read) keep nothing. */
  private kept: Map<object, unknown> | undefined = undefined
  constructor(
    /** The request's method and headers, read without building the Request. */
    public incoming: Incoming,
    public config: ResolvedConfig,
    /** The app's public origin (public-origin.ts): never taken from an untrusted Host. */
    public origin: string,
  ) {
    this.secure = config.useSecureCookies ?? this.origin.startsWith('https:')
    this.cookies = parseCookies(incoming.header('cookie'))
    this.names = cookieNames(this.secure)
    this.now = config.now()
  }
  /** The request's URL, parsed on first use. */
  get url(): URL {
    return this.incoming.url
  }
  /** Origin plus basePath: where the routes live. */
  get baseUrl(): string {
    return this.origin + this.config.basePath
  }
  /** The caller asked for `200 { url }` instead of a redirect; read only by routes that redirect. */
  get returnRedirect(): boolean {
    return this.incoming.header('x-auth-return-redirect') === '1' || askedForJson(this)
  }
  /** The Web `Request`; under the node binding it is built on first use. */
  get request(): Request {
    return this.incoming.request()
  }
  /** The request's feature state, by key (state.ts). */
  get state(): Map<object, unknown> {
    return (this.kept ??= new Map())
  }
}

const timingName = timingHeader.toLowerCase()

/** A response sets each cookie once: a later write in the same step (a plugin's claims after the sign-in's token) replaces the earlier. */
function putCookie(ctx: Context, name: string, serialized: string): void {
  ctx.setCookies = ctx.setCookies.filter((c) => !c.startsWith(`${name}=`))
  ctx.setCookies.push(serialized)
}

export function setCookie(ctx: Context, name: string, value: string, options: CookieOptions = {}): void {
  putCookie(ctx, name, serializeCookie(name, value, { secure: ctx.secure, ...options }))
}

export function clearCookie(ctx: Context, name: string): void {
  putCookie(ctx, name, serializeCookie(name, '', { secure: ctx.secure, expires: new Date(0), maxAge: 0 }))
}

/** Sets the session cookie to expire at `expires` (ms) and announces the new timing. */
export function setSessionCookie(ctx: Context, value: string, expires: number): void {
  setCookie(ctx, ctx.names.sessionToken, value, { expires: new Date(expires) })
  announceSession(ctx, expires)
}

/**
 * Tells the client when a session ending at `expires` (ms) is next due: `Latchkey-Session`. Where
 * device binding is on it adds `; dbsc`, so the worker binds only sessions of a server that binds
 * (and asks nothing of one that does not).
 */
export function announceSession(ctx: Context, expires: number): void {
  const { maxAge, updateAge } = ctx.config.session
  const timing = formatTiming(makeTiming(expires, maxAge, updateAge))
  ctx.headers[timingName] = ctx.config.deviceBound ? `${timing}; dbsc` : timing
}

/** Clears the session cookie and announces that there is no session. */
export function clearSessionCookie(ctx: Context): void {
  clearCookie(ctx, ctx.names.sessionToken)
  ctx.headers[timingName] = formatTiming(null)
}

/** The context of a request to the app (a Web Request, or read through `Incoming`), or null when latchkey cannot read it. */
export function contextOf(request: Request | Incoming, config: ResolvedConfig): Context | null {
  let incoming: Incoming
  try {
    incoming = isIncoming(request) ? request : new WebIncoming(request)
  } catch {
    return null
  }
  const origin = publicOrigin(config.originRule, incoming)
  return origin === null ? null : contextFor(incoming, config, origin)
}

/** An `Incoming` has `header()`, which no Web Request has (whatever realm made it). */
const isIncoming = (request: Request | Incoming): request is Incoming => typeof (request as Incoming).header === 'function'
