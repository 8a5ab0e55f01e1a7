/**
 * OpenID Connect / RFC 8414 discovery through oauth4webapi, cached per discovery URL in memory.
 * The cache only saves round trips: a failed discovery is forgotten at once, a good one after
 * an hour, so a provider's rotated metadata is picked up without a restart.
 */
import * as oauth from 'oauth4webapi'
import { AuthError } from '../../../core/errors.js'
import { requestOptions } from './client.js'
import { multiTenantIssuer, noIssuerCheck, withTenantTemplate } from './tenants.js'
import { cache, cacheKey, maxAgeMs, type Entry } from './discovery-cache.js'

export { clearDiscoveryCache, discoveredAlready } from './discovery-cache.js'

const wellKnownOidc = '/.well-known/openid-configuration'
const wellKnownOAuth = '/.well-known/oauth-authorization-server'

/**
 * The issuer a discovery URL belongs to: the configured one, else the URL without its
 * well-known suffix (OpenID Connect Discovery) or infix (RFC 8414).
 */
export function issuerOf(wellKnown: URL, configured: string | undefined): { issuer: URL; algorithm: 'oidc' | 'oauth2' } | null {
  const algorithm = wellKnown.pathname.startsWith(wellKnownOAuth) ? 'oauth2' : 'oidc'
  if (configured) return { issuer: new URL(configured), algorithm }
  if (wellKnown.pathname.endsWith(wellKnownOidc)) {
    const issuer = new URL(wellKnown.href)
    issuer.pathname = issuer.pathname.slice(0, -wellKnownOidc.length) || '/'
    issuer.search = ''
    return { issuer, algorithm }
  }
  if (algorithm === 'oauth2') {
    const issuer = new URL(wellKnown.href)
    issuer.pathname = issuer.pathname.slice(wellKnownOAuth.length) || '/'
    issuer.search = ''
    return { issuer, algorithm }
  }
  return null
}

/**
 * The metadata at `wellKnown`, checked by oauth4webapi to name `issuer` (configured or derived).
 * The request is oauth4webapi's own; `customFetch` only points it at the configured URL, which
 * may differ from the one oauth4webapi would derive from the issuer.
 */
export function discover(providerId: string, wellKnown: string, configuredIssuer: string | undefined): Promise<oauth.AuthorizationServer> {
  const key = cacheKey(wellKnown, configuredIssuer)
  const hit = cache.get(key)
  if (hit && Date.now() - hit.at < maxAgeMs) return hit.server
  const server = fetchMetadata(providerId, wellKnown, configuredIssuer)
  const entry: Entry = { at: Date.now(), server }
  cache.set(key, entry)
  server.then(
    (known) => void (entry.known = known),
    () => {
      if (cache.get(key) === entry) cache.delete(key)
    },
  )
  return server
}

async function fetchMetadata(providerId: string, wellKnown: string, configuredIssuer: string | undefined): Promise<oauth.AuthorizationServer> {
  let url: URL
  try {
    url = new URL(wellKnown)
  } catch {
    throw configuration(providerId, `expected wellKnown to be an absolute URL, got ${JSON.stringify(wellKnown)}`)
  }
  const expected = issuerOf(url, configuredIssuer)
  if (!expected) {
    throw configuration(providerId, `cannot tell the issuer of ${wellKnown}: set \`issuer\`, or use a URL ending in ${wellKnownOidc}`)
  }
  const options = requestOptions([wellKnown])
  let response: Response
  try {
    response = await oauth.discoveryRequest(expected.issuer, {
      ...options,
      algorithm: expected.algorithm,
      [oauth.customFetch]: (_derived, init) => fetch(url.href, init as RequestInit),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw signInError(providerId, `discovery at ${wellKnown} failed: the provider could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`)
  }
  try {
    const tenant = await multiTenantIssuer(expected.issuer, response)
    const server = await oauth.processDiscoveryResponse(tenant ? noIssuerCheck : expected.issuer, response)
    return tenant === 'template' ? withTenantTemplate(server) : server
  } catch (error) {
    const e = error as { message?: string; cause?: { expected?: string; body?: { issuer?: unknown } } }
    const mismatch = e.cause?.body && e.cause.expected ? ` (expected issuer ${e.cause.expected}, got ${JSON.stringify(e.cause.body.issuer)})` : ''
    throw signInError(providerId, `discovery at ${wellKnown} returned HTTP ${response.status} that is not usable metadata: ${e.message ?? String(error)}${mismatch}`)
  }
}

function configuration(providerId: string, message: string): AuthError {
  return new AuthError('Configuration', `Provider "${providerId}": ${message}`, { status: 500 })
}

/** A discovery failure; the callback re-types it as OAuthCallbackError. */
function signInError(providerId: string, message: string): AuthError {
  const full = `Provider "${providerId}": ${message}`
  return new AuthError('OAuthSignInError', full, { cause: new Error(full) })
}
