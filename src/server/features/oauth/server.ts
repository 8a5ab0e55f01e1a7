/**
 * The provider's authorization server as oauth4webapi sees it: discovered metadata (when the
 * provider has `wellKnown`, or an OIDC `issuer` and no endpoints) with the endpoints the
 * configuration names one by one laid over it.
 */
import type * as oauth from 'oauth4webapi'
import type { OAuthConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { discover } from './discovery.js'
import { endpointUrl, wellKnownOf } from './endpoints.js'

export interface ProviderServer {
  as: oauth.AuthorizationServer
  /** False when neither the configuration nor discovery named an issuer (plain OAuth 2 without `issuer`). */
  issuerKnown: boolean
}

/** One object per provider and discovered document, so oauth4webapi's JWKS cache (keyed by it) stays warm. */
const built = new WeakMap<object, { source: oauth.AuthorizationServer | null; server: ProviderServer }>()

export async function providerServer(provider: OAuthConfig<any>): Promise<ProviderServer> {
  const wellKnown = wellKnownOf(provider)
  const discovered = wellKnown ? await discover(provider.id, wellKnown, provider.issuer) : null
  const hit = built.get(provider)
  if (hit && hit.source === discovered) return hit.server
  const server = build(provider, discovered)
  built.set(provider, { source: discovered, server })
  return server
}

function build(provider: OAuthConfig<any>, discovered: oauth.AuthorizationServer | null): ProviderServer {
  const issuer = discovered?.issuer ?? provider.issuer
  const as: { -readonly [K in keyof oauth.AuthorizationServer]: oauth.AuthorizationServer[K] } = {
    ...(discovered ?? {}),
    // oauth4webapi needs an issuer string; an unknown one can match no `iss` and no ID token.
    issuer: issuer ?? `urn:latchkey:no-issuer:${provider.id}`,
  }
  const authorization = endpointUrl(provider.authorization)
  const token = endpointUrl(provider.token)
  const userinfo = endpointUrl(provider.userinfo)
  if (authorization) as.authorization_endpoint = authorization
  if (token) as.token_endpoint = token
  if (userinfo) as.userinfo_endpoint = withParams(userinfo, typeof provider.userinfo === 'object' ? provider.userinfo.params : undefined)
  const jwks = provider.jwks_endpoint
  if (typeof jwks === 'string' || jwks instanceof URL) as.jwks_uri = String(jwks)
  if (!discovered && !issuer) as.authorization_response_iss_parameter_supported = false
  for (const [key, value] of [['authorization', as.authorization_endpoint], ['token', as.token_endpoint]] as const) {
    if (!value && !(key === 'token' && typeof provider.token === 'object' && provider.token.request)) {
      throw new AuthError(
        'Configuration',
        `Provider "${provider.id}": expected a ${key} endpoint (the \`${key}\` option, \`wellKnown\`, or an OIDC \`issuer\`), got none`,
        { status: 500 },
      )
    }
  }
  return { as, issuerKnown: Boolean(issuer) }
}

function withParams(url: string, params: Record<string, unknown> | undefined): string {
  if (!params) return url
  const out = new URL(url)
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) out.searchParams.set(k, String(v))
  return out.href
}
