/** What `organizations()` takes, resolved once: the roles and the invitations' lifetime. */
import { configurationError } from 'latchkey/server'
import { roleBook, type Permissions, type RoleBook } from './roles.js'

export interface OrganizationsOptions {
  /**
   * The app's roles and their permissions, `{ editor: { project: ['read', 'update'] } }`; the
   * built-in `owner`, `admin` and `member` may be given too, to add permissions to them. An app
   * role ranks as member (see docs/organizations.md, "Roles").
   */
  roles?: Record<string, Permissions>
  /** Seconds an invitation's link works. Default 7 days. */
  invitationMaxAge?: number
}

export interface Resolved {
  roles: RoleBook
  invitationMaxAge: number
}

export function resolveOptions(options: OrganizationsOptions = {}): Resolved {
  const invitationMaxAge = options.invitationMaxAge ?? 7 * 86_400
  if (!Number.isInteger(invitationMaxAge) || invitationMaxAge < 60 || invitationMaxAge > 90 * 86_400) {
    throw configurationError(`organizations: expected invitationMaxAge to be whole seconds from 60 to ${90 * 86_400} (90 days), got ${String(options.invitationMaxAge)}`)
  }
  return { roles: roleBook(options.roles), invitationMaxAge }
}
