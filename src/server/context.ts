/** Per-request state: the parsed request, the resolved configuration, and what the response will carry. */
import { cookieNames, parseCookies, serializeCookie, type CookieNames, type CookieOptions } from './cookies.js'
import { formatTiming, timing as makeTiming, timingHeader } from '../core/session-rule.js'
import type { ResolvedConfig } from './config.js'

export interface Context {
  request: Request
  url: URL
  config: ResolvedConfig
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
  setCookies: string[]
  headers: Headers
}

export function createContext(request: Request, config: ResolvedConfig): Context {
  const url = new URL(request.url)
  const origin = config.origin ?? url.origin
  const secure = config.useSecureCookies ?? origin.startsWith('https:')
  return {
    request,
    url,
    config,
    origin,
    baseUrl: origin + config.basePath,
    secure,
    cookies: parseCookies(request.headers.get('cookie')),
    names: cookieNames(secure),
    now: config.now(),
    returnRedirect: request.headers.get('x-auth-return-redirect') === '1',
    setCookies: [],
    headers: new Headers(),
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
