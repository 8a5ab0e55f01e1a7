/** What `sso()` takes, resolved once. */
import { configurationError, type Context, type LatchkeyPlugin } from 'latchkey/server'

/**
 * What sso reads of the organizations plugin (`organizations()` from latchkey/plugins/organizations):
 * its role book, and the organization that verified a domain. Spelled here, as a plugin imports no
 * other plugin.
 */
export type OrganizationsPlugin = LatchkeyPlugin & {
  roles: { has(role: string): boolean; rank(role: string): number; allows(role: string, permission: string): boolean }
  organizationForDomain?(ctx: Context, domainOrAddress: string): Promise<{ id: string } | null>
  /** Adds a permission sso checks to the role book, with the built-in roles that hold it by default. */
  contributePermission(by: string, permission: string, roles: readonly ('owner' | 'admin' | 'member')[]): void
}

export interface SsoOptions {
  /** The organizations plugin the connections belong to (its roles are the roles a first sign-in gives). */
  organizations: OrganizationsPlugin
  /**
   * The organization that has verified `domain` (lower-case), or null. A connection's domain counts
   * (for home-realm discovery, and to vouch for an address) only where this names the
   * connection's own organization. Default: the organizations plugin's verified domains
   * (`organizationForDomain`); give your own only where domains are proven elsewhere.
   */
  domainOwner?: (domain: string, ctx: Context) => Promise<string | null>
  /**
   * Lets admins give http:// IdP URLs on this machine (127.0.0.1, localhost), for development and
   * tests. Off: IdP URLs (an OIDC issuer, a SAML metadata URL) must be https.
   */
  allowLoopbackHttp?: boolean
  /** The provider id: /signin/<id>, /callback/<id> (the OIDC redirect URI), the accounts' provider. Default `sso`. */
  id?: string
  /** The provider's name on the sign-in page. Default `Single sign-on`. */
  name?: string
}

export interface Resolved {
  organizations: OrganizationsPlugin
  domainOwner: (domain: string, ctx: Context) => Promise<string | null>
  providerId: string
  name: string
  allowLoopbackHttp: boolean
}

export function resolveOptions(options: SsoOptions): Resolved {
  if (!options || typeof options.organizations?.roles?.has !== 'function' || typeof options.organizations.contributePermission !== 'function') {
    throw configurationError('sso: expected { organizations }, the organizations() plugin its connections belong to: sso({ organizations: orgs })')
  }
  if (options.domainOwner !== undefined && typeof options.domainOwner !== 'function') throw configurationError('sso: expected domainOwner to be (domain, ctx) => Promise<organization id | null>')
  const providerId = options.id ?? 'sso'
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(providerId)) throw configurationError(`sso: expected id to be letters, digits, "-" and "_", got ${JSON.stringify(providerId)}`)
  return { organizations: options.organizations, domainOwner: options.domainOwner ?? verifiedBy(options.organizations), providerId, name: options.name ?? 'Single sign-on', allowLoopbackHttp: options.allowLoopbackHttp === true }
}

/** The organizations plugin's verified domains as `domainOwner`; none at all where it has no such lookup. */
function verifiedBy(organizations: OrganizationsPlugin): Resolved['domainOwner'] {
  const lookup = organizations.organizationForDomain
  if (!lookup) return async () => null
  return async (domain, ctx) => (await lookup.call(organizations, ctx, domain))?.id ?? null
}
