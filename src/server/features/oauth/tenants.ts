/**
 * Microsoft Entra ID's multi-tenant aliases (`common`, `organizations`, `consumers`) serve one
 * discovery document for many tenants. Its issuer is a template,
 * `https://login.microsoftonline.com/{tenantid}/v2.0`, or for `consumers` the one consumer
 * tenant's own issuer. Each response then names its own tenant: the ID token in `iss` and `tid`.
 * oauth4webapi's author provides two hooks for this, exported but not typed: one skips the issuer
 * comparison at discovery, the other gives the issuer an ID token must carry.
 */
import * as oauth from 'oauth4webapi'

const hooks = oauth as unknown as { _nodiscoverycheck: symbol; _expectedIssuer: symbol }
/** For `processDiscoveryResponse`: take the document's issuer as it is. */
export const noIssuerCheck = hooks._nodiscoverycheck as unknown as URL

const aliases = new Set(['common', 'organizations', 'consumers'])
const placeholder = '{tenantid}'
const tenantId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * How a discovered issuer stands for a configured multi-tenant alias: `template` when it is the
 * configured issuer with the alias replaced by `{tenantid}`, `tenant` when the alias is replaced
 * by one tenant id, else null (the exact comparison applies). A single-tenant configuration names
 * no alias, so it stays pinned to its tenant whatever its document says.
 */
export function tenantIssuerKind(configured: URL, issuer: string): 'template' | 'tenant' | null {
  const segments = configured.pathname.split('/')
  const at = segments.findIndex((segment) => aliases.has(segment))
  if (at < 0) return null
  const template = trim(configured.origin + segments.with(at, placeholder).join('/'))
  const candidate = trim(issuer)
  if (candidate === template) return 'template'
  return tenantOf(template, candidate) ? 'tenant' : null
}

/** The kind of the document's issuer, read from a copy so oauth4webapi can still read the response. */
export async function multiTenantIssuer(configured: URL, response: Response): Promise<'template' | 'tenant' | null> {
  if (response.status !== 200) return null
  const body = (await response.clone().json().catch(() => null)) as { issuer?: unknown } | null
  return typeof body?.issuer === 'string' ? tenantIssuerKind(configured, body.issuer) : null
}

/** Metadata whose issuer is a template: an ID token must carry the template filled with its own `tid`. */
export function withTenantTemplate(server: oauth.AuthorizationServer): oauth.AuthorizationServer {
  const template = server.issuer
  return Object.assign(server, { [hooks._expectedIssuer]: ({ claims }: IdToken) => ownIssuer(template, claims) })
}

/**
 * The metadata to check an authorization response and its tokens against. Under a template, an
 * `iss` parameter (RFC 9207; Entra sends none today) names the tenant. It must fill the template,
 * and the ID token must then be that same tenant's, by its `iss` and by its `tid`.
 */
export function forResponseIssuer(as: oauth.AuthorizationServer, iss: string | null): oauth.AuthorizationServer {
  if (!iss || !(hooks._expectedIssuer in as) || !tenantOf(trim(as.issuer), trim(iss))) return as
  const template = as.issuer
  // The value the token's `iss` is compared with: the named tenant's issuer when its `tid` agrees,
  // else whichever of the two it fails to match.
  const expected = ({ claims }: IdToken) => {
    const own = ownIssuer(template, claims)
    return own === iss || own === claims.iss ? iss : own
  }
  return { ...as, issuer: iss, [hooks._expectedIssuer]: expected }
}

interface IdToken {
  claims: Record<string, unknown>
}

/** The template filled with the token's `tid`; the template itself (which no token carries) when `tid` is not a tenant id. */
function ownIssuer(template: string, claims: Record<string, unknown>): string {
  return typeof claims.tid === 'string' && tenantId.test(claims.tid) ? template.replace(placeholder, claims.tid) : template
}

/** Whether `issuer` is `template` with its placeholder filled by one tenant id. */
function tenantOf(template: string, issuer: string): boolean {
  const cut = template.indexOf(placeholder)
  if (cut < 0) return false
  const before = template.slice(0, cut)
  const after = template.slice(cut + placeholder.length)
  if (!issuer.startsWith(before) || !issuer.endsWith(after) || issuer.length <= before.length + after.length) return false
  return tenantId.test(issuer.slice(before.length, issuer.length - after.length))
}

function trim(url: string): string {
  return url.replace(/\/+$/, '')
}
