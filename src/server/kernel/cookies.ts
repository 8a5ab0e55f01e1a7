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

export interface CookieNames {
  sessionToken: string
  csrfToken: string
  callbackUrl: string
  /** OAuth and WebAuthn check values, one cookie per kind, each bound to a provider id inside. */
  pkceCodeVerifier: string
  state: string
  nonce: string
  webauthnChallenge: string
  /** Device-bound sessions: the short-lived credential only the device's key renews. */
  bound: string
  /** "Confirm it's you" across a sign-in that leaves the site: the user it must be. */
  confirm: string
  /** The browser that asked for an email link: its address and link, so that browser alone signs in from a plain GET. */
  emailRequest: string
  /** A sign-in waiting for its second factor (features/mfa/pending.ts). */
  mfaPending: string
  /** A browser the user trusted to skip the second factor (features/mfa/trusted-device.ts). */
  mfaDevice: string
}

/**
 * Cookie names; on https every one carries the `__Host-` prefix. latchkey sets no Domain and
 * always Path=/, so nothing is lost, and the browser keeps a sibling subdomain (which may set a
 * `__Secure-` cookie for the parent domain) from tossing a session or check cookie into this host.
 */
export function cookieNames(secure: boolean): CookieNames {
  return secure ? secureNames : plainNames
}

const secureNames = Object.freeze(makeNames(true))
const plainNames = Object.freeze(makeNames(false))

function makeNames(secure: boolean): CookieNames {
  const p = secure ? '__Host-' : ''
  return {
    sessionToken: `${p}latchkey.session-token`,
    csrfToken: `${p}latchkey.csrf-token`,
    callbackUrl: `${p}latchkey.callback-url`,
    pkceCodeVerifier: `${p}latchkey.pkce.code_verifier`,
    state: `${p}latchkey.state`,
    nonce: `${p}latchkey.nonce`,
    webauthnChallenge: `${p}latchkey.challenge`,
    bound: `${p}latchkey.bound`,
    confirm: `${p}latchkey.confirm`,
    emailRequest: `${p}latchkey.email-request`,
    mfaPending: `${p}latchkey.mfa-pending`,
    mfaDevice: `${p}latchkey.mfa-device`,
  }
}
