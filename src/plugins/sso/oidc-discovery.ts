/**
 * An OIDC connection's issuer, discovered through oauth4webapi (the issuer in the document must be
 * the one the admin gave) and kept per instance for ten minutes; a failure is not kept.
 */
import * as oauth from 'oauth4webapi'
import { instanceKey, type Context } from 'latchkey/server'
import { connectionInvalid } from './errors.js'
import { isIdpUrl } from './fields.js'
import type { Resolved } from './options.js'

const keepMs = 10 * 60_000
const timeoutMs = 10_000
const discovered = instanceKey<Map<string, { at: number; as: Promise<oauth.AuthorizationServer> }>>('sso discovered issuers')

/** What every request to an issuer carries: a time limit, and plain http only where the app allows it for loopback. */
export function requestOptions(options: Resolved, url: string) {
  return { signal: AbortSignal.timeout(timeoutMs), ...(url.startsWith('http:') && options.allowLoopbackHttp && { [oauth.allowInsecureRequests]: true }) }
}

export function discoverIssuer(ctx: Context, options: Resolved, issuer: string): Promise<oauth.AuthorizationServer> {
  const cache = discovered.find(ctx.config) ?? discovered.set(ctx.config, new Map())
  const hit = cache.get(issuer)
  if (hit && Date.now() - hit.at < keepMs) return hit.as
  const entry = { at: Date.now(), as: fetchIssuer(options, issuer) }
  cache.set(issuer, entry)
  entry.as.catch(() => cache.get(issuer) === entry && cache.delete(issuer))
  return entry.as
}

async function fetchIssuer(options: Resolved, issuer: string): Promise<oauth.AuthorizationServer> {
  if (!isIdpUrl(issuer, options.allowLoopbackHttp)) throw connectionInvalid('the issuer is not an https URL')
  const url = new URL(issuer)
  let response: Response
  try {
    response = await oauth.discoveryRequest(url, { ...requestOptions(options, issuer), algorithm: 'oidc' })
  } catch {
    throw connectionInvalid(`the issuer ${url.origin} could not be reached`)
  }
  try {
    const as = await oauth.processDiscoveryResponse(url, response)
    // Every endpoint the flow reaches obeys the same rule as the issuer.
    for (const endpoint of [as.authorization_endpoint, as.token_endpoint, as.jwks_uri]) {
      if (!endpoint || !isIdpUrl(endpoint, options.allowLoopbackHttp)) throw new Error('an endpoint is missing or not https')
    }
    return as
  } catch (error) {
    throw connectionInvalid(`the issuer's discovery document is not usable (${(error as Error).message})`)
  }
}
