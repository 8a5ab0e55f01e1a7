/** Cookie parsing, writing and naming. */

export interface CookieOptions {
  expires?: Date
  maxAge?: number
  httpOnly?: boolean
  secure?: boolean
  sameSite?: 'Lax' | 'Strict' | 'None'
  path?: string
}

/** Parses a Cookie header. The first value of a repeated name wins, as browsers send the most specific first. */
export function parseCookies(header: string | null): Map<string, string> {
  const jar = new Map<string, string>()
  if (!header) return jar
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 1) continue
    const name = part.slice(0, eq).trim()
    if (jar.has(name)) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    // Session tokens are base64url: most values have nothing to decode.
    if (!value.includes('%')) {
      jar.set(name, value)
      continue
    }
    try {
      jar.set(name, decodeURIComponent(value))
    } catch {
      jar.set(name, value)
    }
  }
  return jar
}

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  let cookie = `${name}=${encodeURIComponent(value)}`
  if (options.expires) cookie += `; Expires=${options.expires.toUTCString()}`
  if (options.maxAge !== undefined) cookie += `; Max-Age=${Math.floor(options.maxAge)}`
  cookie += `; Path=${options.path ?? '/'}`
  if (options.httpOnly !== false) cookie += '; HttpOnly'
  if (options.secure) cookie += '; Secure'
  cookie += `; SameSite=${options.sameSite ?? 'Lax'}`
  return cookie
}

/** The kernel's own cookies: the Auth.js protocol's session, CSRF token and callback URL. */
export interface CookieNames {
  sessionToken: string
  csrfToken: string
  callbackUrl: string
}

/**
 * Cookie names; on https every one carries the `__Host-` prefix. latchkey sets no Domain and
 * always Path=/, so nothing is lost, and the browser keeps a sibling subdomain (which may set a
 * `__Secure-` cookie for the parent domain) from tossing a session or check cookie into this host.
 */
export function cookieNames(secure: boolean): CookieNames {
  return secure ? secureNames : plainNames
}

/** The names (after `latchkey.`) the kernel keeps for itself: no feature may claim one. */
export const kernelCookies = { sessionToken: 'session-token', csrfToken: 'csrf-token', callbackUrl: 'callback-url' } as const

const secureNames: CookieNames = Object.freeze(makeNames('__Host-'))
const plainNames: CookieNames = Object.freeze(makeNames(''))

function makeNames(prefix: string): CookieNames {
  return {
    sessionToken: `${prefix}latchkey.${kernelCookies.sessionToken}`,
    csrfToken: `${prefix}latchkey.${kernelCookies.csrfToken}`,
    callbackUrl: `${prefix}latchkey.${kernelCookies.callbackUrl}`,
  }
}

/**
 * A cookie of a feature (or of the shared sign-in step), made once as a module-level constant
 * beside the code that sets and reads it, and listed in its `LatchkeyPlugin.cookies` so the instance
 * knows every cookie it may set and refuses two claims of one name at start-up (config.ts). The
 * name on the wire is `latchkey.<name>`, with `__Host-` on https like the kernel's own.
 *
 *     const pendingCookie = cookieKey('mfa-pending')
 *     setCookie(ctx, pendingCookie.of(ctx), value)
 */
export class CookieKey {
  private readonly plain: string
  private readonly secure: string
  constructor(readonly name: string) {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new Error(`latchkey: a cookie name is letters, digits, ".", "_" and "-", got ${JSON.stringify(name)}`)
    this.plain = `latchkey.${name}`
    this.secure = `__Host-latchkey.${name}`
  }

  /** The cookie's name for this request: both forms are made once, so a request allocates none. */
  of(ctx: { readonly secure: boolean }): string {
    return ctx.secure ? this.secure : this.plain
  }
}

export function cookieKey(name: string): CookieKey {
  return new CookieKey(name)
}
