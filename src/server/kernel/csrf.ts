/**
 * CSRF double-submit: the cookie holds `token|sha256(token + secret)`, the form or JSON body
 * holds `csrfToken`. A POST passes when the two tokens match and the cookie's hash is ours.
 */
import { AuthError } from '../../core/errors.js'
import { randomToken, sha256Hex, timingSafeEqual } from './crypto.js'
import { setCookie, type Context } from './context.js'

/** The request's valid CSRF token, or a new one set in a cookie. */
export async function ensureCsrfToken(ctx: Context): Promise<string> {
  const existing = await readCookieToken(ctx)
  if (existing) return existing
  const token = randomToken(32)
  const hash = await sha256Hex(token + ctx.config.secrets[0])
  setCookie(ctx, ctx.names.csrfToken, `${token}|${hash}`)
  return token
}

/** Throws `MissingCSRF` unless the body's token matches a cookie token that we issued. */
export async function verifyCsrf(ctx: Context, bodyToken: unknown): Promise<void> {
  const cookieToken = await readCookieToken(ctx)
  if (!cookieToken) throw new AuthError('MissingCSRF', 'The CSRF cookie is missing or was not issued by this server', { status: 403 })
  if (typeof bodyToken !== 'string' || !bodyToken) throw new AuthError('MissingCSRF', 'Expected a csrfToken in the request body', { status: 403 })
  if (!timingSafeEqual(bodyToken, cookieToken)) throw new AuthError('MissingCSRF', 'The csrfToken does not match the CSRF cookie', { status: 403 })
}

async function readCookieToken(ctx: Context): Promise<string | null> {
  const value = ctx.cookies.get(ctx.names.csrfToken)
  if (!value) return null
  const [token, hash] = value.split('|')
  if (!token || !hash) return null
  for (const secret of ctx.config.secrets) {
    if (timingSafeEqual(hash, await sha256Hex(token + secret))) return token
  }
  return null
}
