/** What `scim()` takes, resolved once. */
import { configurationError } from 'latchkey/server'

export interface ScimOptions {
  /**
   * Whether the organization's IdP vouches for the addresses it sends: `true`, or a function that
   * decides per organization and address (say, the address's domain is one the organization
   * proved). Vouched: a new user's address counts as verified, and an existing user of that
   * address is linked to the organization. Not vouched (the default): a new user's address is
   * unproven until its owner proves it, and an address that already has a user is refused
   * (409 uniqueness): an unproven address never merges into an account.
   */
  verifiedEmails?: boolean | ((input: { organizationId: string; email: string }) => boolean | Promise<boolean>)
  /** The role a provisioned member gets in the organization. Default `member`. */
  role?: string
  /** The most resources one list answer holds (`count` above it is cut to it). Default 100, at most 1000. */
  maxResults?: number
}

export interface ResolvedScim {
  vouches: (organizationId: string, email: string) => Promise<boolean>
  role: string
  maxResults: number
  /** The most resources a filter other than `attr eq "value"` is matched against, in memory. */
  maxScan: number
}

export function resolveOptions(options: ScimOptions = {}): ResolvedScim {
  const { verifiedEmails = false, role = 'member', maxResults = 100 } = options
  if (typeof verifiedEmails !== 'boolean' && typeof verifiedEmails !== 'function') throw configurationError('scim: expected verifiedEmails to be true, false, or ({ organizationId, email }) => boolean')
  if (typeof role !== 'string' || !/^[a-z][a-z0-9_-]{0,39}$/i.test(role) || role === 'owner') throw configurationError('scim: expected role to be a role name of the organizations plugin other than owner')
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 1000) throw configurationError('scim: expected maxResults to be a whole number from 1 to 1000')
  return {
    vouches: async (organizationId, email) => (typeof verifiedEmails === 'function' ? (await verifiedEmails({ organizationId, email })) === true : verifiedEmails),
    role,
    maxResults,
    maxScan: 10_000,
  }
}
