/** Per-request state: the parsed request, the resolved configuration, and what the response will carry. */
import { cookieNames, parseCookies, serializeCookie, type CookieNames, type CookieOptions } from './cookies.js'
import { formatTiming, timing as makeTiming, timingHeader } from '../core/session-rule.js'
import type { ResolvedConfig } from './config.js'

/**
 * What the handler reads of a request. The node binding gives one that builds its Web `Request`
 * only when a route asks for it: on Node 20 that construction costs more than a session read.
 */
export interface Incoming {
  method: string
  url: URL
  /** A header's value as `Headers.get` would give it. */
  header(name: string): string | null
  request(): Request
}

/** Per-request state; one class, so its fields are written once. */
export type Context = RequestContext

export function createContext(request: Request, config: ResolvedConfig): Context {
  return contextFor(new WebIncoming(request), config, false)
}

/** A class, not an object of closures: one allocation per request. */
export class WebIncoming implements Incoming {
  readonly method: string
  readonly url: URL
  constructor(private readonly web: Request) {
    this.method = web.method
    this.url = new URL(web.url)
  }
  header(name: string): string | null {
    return this.web.headers.get(name)
  }
  request(): Request {
    return this.web
  }
}

export function contextFor(incoming: Incoming, config: ResolvedConfig, bodyAside: boolean): Context {
  return new RequestContext(incoming, config, bodyAside)
}

/** A class, so the lazy `request` getter lives on the prototype and each context is a plain fast object. */
class RequestContext {
  url: URL
  /** The app's public origin. */
  origin: string
  /** Origin plus basePath: where the routes live. */
  baseUrl: string
  secure: boolean
  cookies: Map<string, string>
  names: CookieNames
  /** The clock reading for this request, in milliseconds. */
  now: number
  /** The caller asked for `200 { url }` instead of a redirect. */
  returnRedirect: boolean
  setCookies: string[] = []
  headers = new Headers()
  constructor(
    /** The request's method and headers, read without building the Request. */
    public incoming: Incoming,
    public config: ResolvedConfig,
    /** The node binding takes string bodies from respond.ts's side channel, not from the Response. */
    public bodyAside: boolean,
  ) {
    this.url = incoming.url
    this.origin = config.origin ?? this.url.origin
    this.secure = config.useSecureCookies ?? this.origin.startsWith('https:')
    this.baseUrl = this.origin + config.basePath
    this.cookies = parseCookies(incoming.header('cookie'))
    this.names = cookieNames(this.secure)
    this.now = config.now()
    this.returnRedirect = incoming.header('x-auth-return-redirect') === '1'
  }
  /** The Web `Request`; under the node binding it is built on first use. */
  get request(): Request {
    return this.incoming.request()
  }
}

export function setCookie(ctx: Context, name: string, value: string, options: CookieOptions = {}): void {
  ctx.setCookies.push(serializeCookie(name, value, { secure: ctx.secure, ...options }))
}

export function clearCookie(ctx: Context, name: string): void {
  ctx.setCookies.push(serializeCookie(name, '', { secure: ctx.secure, expires: new Date(0), maxAge: 0 }))
}

/** Sets the session cookie to expire at `expires` (ms) and announces the new timing. */
export function setSessionCookie(ctx: Context, value: string, expires: number): void {
  setCookie(ctx, ctx.names.sessionToken, value, { expires: new Date(expires) })
  const { maxAge, updateAge } = ctx.config.session
  ctx.headers.set(timingHeader, formatTiming(makeTiming(expires, maxAge, updateAge)))
}

/** Clears the session cookie and announces that there is no session. */
export function clearSessionCookie(ctx: Context): void {
  clearCookie(ctx, ctx.names.sessionToken)
  ctx.headers.set(timingHeader, formatTiming(null))
}
