/** What `organizations()` takes, resolved once: the roles and the invitations' lifetime. */
import { configurationError } from 'latchkey/server'
import { defaultResolveTxt, type ResolveTxt } from './dns.js'
import { roleBook, type OpenRoleBook, type Permissions } from './roles.js'

export interface OrganizationsOptions {
  /**
   * The app's roles and their permissions, `{ editor: { project: ['read', 'update'] } }`; the
   * built-in `owner`, `admin` and `member` may be given too, to add permissions to them. An app
   * role ranks as member (see docs/organizations.md, "Roles").
   */
  roles?: Record<string, Permissions>
  /** Seconds an invitation's link works. Default 7 days. */
  invitationMaxAge?: number
  /**
   * Verified domains: the TXT lookup (node:dns's shape, `(name) => Promise<string[][]>`).
   * Default: node:dns where the runtime has it; give one on a runtime without (Workers: a
   * DNS-over-HTTPS client), or to choose the resolver.
   */
  resolveTxt?: ResolveTxt
  /** Verified domains: true for a public suffix no organization may claim (say, from a Public Suffix List package); a short built-in list applies anyway. */
  isPublicSuffix?: (domain: string) => boolean
}

export interface Resolved {
  roles: OpenRoleBook
  invitationMaxAge: number
  resolveTxt: ResolveTxt | undefined
  isPublicSuffix?: (domain: string) => boolean
}

export function resolveOptions(options: OrganizationsOptions = {}): Resolved {
  const invitationMaxAge = options.invitationMaxAge ?? 7 * 86_400
  if (!Number.isInteger(invitationMaxAge) || invitationMaxAge < 60 || invitationMaxAge > 90 * 86_400) {
    throw configurationError(`organizations: expected invitationMaxAge to be whole seconds from 60 to ${90 * 86_400} (90 days), got ${String(options.invitationMaxAge)}`)
  }
  for (const key of ['resolveTxt', 'isPublicSuffix'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') throw configurationError(`organizations: expected ${key} to be a function`)
  }
  return { roles: roleBook(options.roles), invitationMaxAge, resolveTxt: options.resolveTxt ?? defaultResolveTxt(), isPublicSuffix: options.isPublicSuffix }
}
