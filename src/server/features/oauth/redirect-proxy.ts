/**
 * The redirect proxy: one stable callback URL registered at the provider serving many origins
 * (preview deployments, branch builds) that cannot each be registered.
 *
 * How it works:
 * - `redirectProxyUrl` (on the provider or `AuthConfig`) is the base URL of a latchkey deployment
 *   that acts as the proxy, for example `https://auth.example.com/auth`. It runs latchkey with
 *   the same `secret` and the same provider ids.
 * - The origin sends `redirect_uri = <redirectProxyUrl>/callback/<provider id>` and a `state`
 *   that is sealed with the shared secret and holds the origin's own callback URL.
 * - The provider returns the browser to the proxy. The proxy's callback route opens the state;
 *   when it names another callback URL, the proxy forwards the browser there with the same
 *   parameters (302) and does nothing else. Only a holder of the secret can make such a state,
 *   so the proxy cannot be used as an open redirector.
 * - The origin checks the state against its state cookie as usual, and exchanges the code with
 *   the same `redirect_uri` (the proxy's), as the provider requires.
 */
import * as oauth from 'oauth4webapi'
import type { OAuthConfig } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import { seal, unseal } from '../../kernel/jwt.js'

const salt = 'latchkey.redirect-proxy-state'
const stateMaxAge = 15 * 60

/** The proxy's base URL for this provider, without a trailing slash, or undefined. */
export function redirectProxyUrl(ctx: Context, provider: OAuthConfig<any>): string | undefined {
  const url = provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl
  return url ? url.replace(/\/+$/, '') : undefined
}

/** This deployment's own callback URL for the provider. */
export function ownCallbackUrl(ctx: Context, provider: OAuthConfig<any>): string {
  return `${ctx.baseUrl}/callback/${encodeURIComponent(provider.id)}`
}

/** The `redirect_uri` of the authorization request and of the code exchange. */
export function redirectUri(ctx: Context, provider: OAuthConfig<any>): string {
  const proxy = redirectProxyUrl(ctx, provider)
  return proxy ? `${proxy}/callback/${encodeURIComponent(provider.id)}` : ownCallbackUrl(ctx, provider)
}

/** A state value that tells the proxy where to forward; random inside, so it is still unguessable. */
export async function makeProxyState(ctx: Context, provider: OAuthConfig<any>): Promise<string> {
  const now = Math.floor(ctx.now / 1000)
  return seal(
    { provider: provider.id, origin: ownCallbackUrl(ctx, provider), random: oauth.generateRandomState() },
    ctx.config.secrets,
    salt,
    { now, expires: now + stateMaxAge },
  )
}

/**
 * Where a proxied callback must go: the callback URL sealed in `state` when it is another
 * deployment's; undefined when the state is not a proxy state or names this deployment.
 */
export async function forwardTarget(ctx: Context, provider: OAuthConfig<any>, state: string | null): Promise<URL | undefined> {
  if (!state || state.split('.').length !== 5) return undefined
  const payload = await unseal<{ provider?: unknown; origin?: unknown }>(state, ctx.config.secrets, salt, Math.floor(ctx.now / 1000))
  if (!payload || payload.provider !== provider.id || typeof payload.origin !== 'string') return undefined
  if (payload.origin === ownCallbackUrl(ctx, provider)) return undefined
  let target: URL
  try {
    target = new URL(payload.origin)
  } catch {
    return undefined
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return undefined
  return target
}
