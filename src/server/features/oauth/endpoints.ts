/**
 * Where a provider's endpoints are, known without a request and without oauth4webapi: the
 * start-up check and the pages' form targets need them, the sign-in code (server.ts) builds on them.
 */
import type { OAuthConfig } from '../../../core/types.js'
import { discoveredAlready } from './discovery-cache.js'

/**
 * Where the provider's authorization endpoint may be, known without a request: the configured
 * endpoint, the one a discovery already brought, and the discovery URL and issuer (whose origin
 * is the endpoint's at every common provider).
 */
export function knownAuthorizationUrls(provider: OAuthConfig<any>): string[] {
  const wellKnown = wellKnownOf(provider)
  const discovered = wellKnown ? discoveredAlready(wellKnown, provider.issuer)?.authorization_endpoint : undefined
  return [endpointUrl(provider.authorization), discovered, wellKnown, provider.issuer].filter((u): u is string => typeof u === 'string')
}

/** The URL of an endpoint option, a string or a handler's `url`. */
export function endpointUrl(endpoint: string | { url?: string } | undefined): string | undefined {
  return typeof endpoint === 'string' ? endpoint : endpoint?.url
}

/** The discovery URL: the configured one, or an OIDC issuer's when no endpoints are named. */
export function wellKnownOf(provider: OAuthConfig<any>): string | undefined {
  if (provider.wellKnown) return provider.wellKnown
  const named = endpointUrl(provider.authorization) && endpointUrl(provider.token)
  if (provider.type === 'oidc' && provider.issuer && !named) {
    return `${provider.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
  }
  return undefined
}
