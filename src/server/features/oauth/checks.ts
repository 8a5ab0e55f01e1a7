/**
 * The callback checks (PKCE, state, nonce): which a provider uses, and their values' round trip
 * through short-lived encrypted cookies.
 *
 * Each value travels in its own cookie, sealed (JWE) with a key derived from the secret and the
 * cookie name, expiring 15 minutes after the sign-in began, and naming the provider inside the
 * sealed payload: a cookie made for provider B is refused on provider A's callback, so one
 * provider's response can never be checked against another's values.
 */
import type { OAuthConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { clearCookie, setCookie, type Context } from '../../kernel/context.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { redirectProxyUrl } from './redirect-proxy.js'
import { checkCookies, type CheckName } from './check-cookies.js'

export { checkCookies, type CheckName } from './check-cookies.js'

/** Seconds a sign-in may take between the redirect to the provider and the callback. */
export const checkMaxAge = 15 * 60

/** The sealed payload of a check cookie. */
export interface CheckPayload {
  provider: string
  value: string
}

/**
 * The checks a provider performs. Defaults: `oauth` ['pkce']; `oidc` ['pkce', 'nonce'] (PKCE
 * against code injection, the nonce binding the ID token to this browser). `none` turns them
 * off. A redirect proxy adds 'state', because the state is what carries the way back.
 */
export function checksOf(ctx: Context, provider: OAuthConfig<any>): Set<CheckName> {
  const configured: string[] = provider.checks ?? (provider.type === 'oidc' ? ['pkce', 'nonce'] : ['pkce'])
  const checks = new Set<CheckName>()
  for (const check of configured) {
    if (check === 'none') continue
    if (check !== 'pkce' && check !== 'state' && check !== 'nonce') {
      throw new AuthError('Configuration', `Provider "${provider.id}": expected checks among none, state, pkce, nonce, got "${check}"`, { status: 500 })
    }
    if (check === 'nonce' && provider.type !== 'oidc') {
      throw new AuthError('Configuration', `Provider "${provider.id}": the "nonce" check needs type "oidc", got "${provider.type}"`, { status: 500 })
    }
    checks.add(check)
  }
  if (redirectProxyUrl(ctx, provider)) checks.add('state')
  return checks
}

/** Seals a check value as its cookie holds it. Exported so tests can forge cookies with a known secret. */
export function sealCheck(secrets: string[], cookieName: string, payload: CheckPayload, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000)
  return seal({ ...payload }, secrets, cookieName, { now, expires: now + checkMaxAge })
}

/** Sets the cookie carrying one check value for the provider's callback. */
export async function setCheck(ctx: Context, provider: OAuthConfig<any>, check: CheckName, value: string): Promise<void> {
  const name = checkCookies[check].of(ctx)
  const sealed = await sealCheck(ctx.config.secrets, name, { provider: provider.id, value }, ctx.now)
  setCookie(ctx, name, sealed, { maxAge: checkMaxAge, expires: new Date(ctx.now + checkMaxAge * 1000) })
}

/** Reads one check value; InvalidCheck when it is missing, expired, forged or another provider's. */
export async function readCheck(ctx: Context, provider: OAuthConfig<any>, check: CheckName): Promise<string> {
  const name = checkCookies[check].of(ctx)
  const cookie = ctx.cookies.get(name)
  const label = check === 'pkce' ? 'PKCE code verifier' : check
  if (!cookie) {
    throw new AuthError('InvalidCheck', `Provider "${provider.id}": expected a ${label} cookie (${name}), got none; the sign-in was not started in this browser or took longer than ${checkMaxAge / 60} minutes`)
  }
  const payload = await unseal<Partial<CheckPayload>>(cookie, ctx.config.secrets, name, Math.floor(ctx.now / 1000))
  if (!payload || typeof payload.value !== 'string' || typeof payload.provider !== 'string') {
    throw new AuthError('InvalidCheck', `Provider "${provider.id}": the ${label} cookie is expired, or was not made by this server`)
  }
  if (payload.provider !== provider.id) {
    throw new AuthError('InvalidCheck', `Provider "${provider.id}": the ${label} cookie was made for provider "${payload.provider}"`)
  }
  return payload.value
}

/** Clears every check cookie: the callback uses them once, whatever its outcome. */
export function clearChecks(ctx: Context): void {
  for (const check of Object.keys(checkCookies) as CheckName[]) {
    if (ctx.cookies.has(checkCookies[check].of(ctx))) clearCookie(ctx, checkCookies[check].of(ctx))
  }
}
