/**
 * Roles and what they may do. Three built-in roles rank owner > admin > member; the app declares
 * its own roles with their permissions (`resource: actions`), and may add permissions to the
 * built-in ones under their names. An app role ranks as member: it may hold any permission but
 * `organization:delete`, and grants (by invitation or `set-role`) only roles of its rank or below,
 * so a role that may invite can never hand out admin. The owner may do everything any role may.
 * Another plugin that checks a permission of its own (sso's `sso:manage`) contributes it, with the
 * built-in roles that hold it by default: the book names only the organization's own.
 */
import { configurationError } from 'latchkey/server'

export const builtInRoles = ['owner', 'admin', 'member'] as const
export type BuiltInRole = (typeof builtInRoles)[number]

/** `resource: actions`, as the configuration declares a role's permissions. */
export type Permissions = Record<string, readonly string[]>

/** The organization's own permissions, which the routes check. */
export const adminPermissions = ['organization:update', 'member:invite', 'member:remove', 'member:set-role', 'invitation:revoke'] as const
export const ownerOnly = 'organization:delete'
/** Verified domains: the owner's by default; the configuration may give it to another role (`admin: { domain: ['manage'] }`). */
export const domainManage = 'domain:manage'

const ranks: Record<BuiltInRole, number> = { owner: 3, admin: 2, member: 1 }

/** Letters, digits, "-" and "_", starting with a letter: a role's name and a permission's parts. */
const namePattern = /^[a-z][a-z0-9_-]{0,39}$/i

export interface RoleBook {
  /** Every role, built-in first. */
  names: string[]
  /** True when `role` is one of them. */
  has(role: string): boolean
  /** 3 owner, 2 admin, 1 member and every app role. */
  rank(role: string): number
  /** True when `role` holds `permission` (`resource:action`). */
  allows(role: string, permission: string): boolean
  /** The role's permissions, sorted, as the organization's page lists them. */
  permissionsOf(role: string): string[]
}

/** The book as the plugin holds it: other plugins' permissions join it (`OrganizationsPlugin.contributePermission`). */
export interface OpenRoleBook extends RoleBook {
  /**
   * `permission` (`resource:action`), checked by the plugin `by`, held by default by `roles`
   * (built-in ones; the owner always). The same plugin giving it again as before changes nothing
   * (an instance built again); any other second contribution is a configuration error.
   */
  contribute(by: string, permission: string, roles: readonly BuiltInRole[]): void
}

export function roleBook(declared: Record<string, Permissions> = {}): OpenRoleBook {
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) throw configurationError('organizations: expected roles to be an object of role name to { resource: [actions] }')
  const grants = new Map<string, Set<string>>([
    ['owner', new Set([...adminPermissions, ownerOnly, domainManage])],
    ['admin', new Set(adminPermissions)],
    ['member', new Set()],
  ])
  for (const [role, permissions] of Object.entries(declared)) {
    if (!namePattern.test(role)) throw configurationError(`organizations: role names are letters, digits, "-" and "_", starting with a letter; got ${JSON.stringify(role)}`)
    if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) throw configurationError(`organizations: role "${role}" needs { resource: [actions] }`)
    const set = grants.get(role) ?? new Set<string>()
    for (const [resource, actions] of Object.entries(permissions)) {
      if (!namePattern.test(resource)) throw configurationError(`organizations: role "${role}" names the resource ${JSON.stringify(resource)}; expected letters, digits, "-" and "_"`)
      if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string' || !namePattern.test(a))) {
        throw configurationError(`organizations: role "${role}" resource "${resource}" needs a list of actions (letters, digits, "-" and "_")`)
      }
      for (const action of actions) {
        const permission = `${resource}:${action}`
        if (permission === ownerOnly && role !== 'owner') throw configurationError(`organizations: only the owner may hold ${ownerOnly}; remove it from role "${role}"`)
        set.add(permission)
      }
    }
    grants.set(role, set)
  }
  // The owner may do whatever any role may.
  const owner = grants.get('owner')!
  for (const set of grants.values()) for (const p of set) owner.add(p)
  const names = [...grants.keys()]
  const own = [...adminPermissions, ownerOnly, domainManage] as string[]
  /** permission → who contributed it, and to which roles, as said. */
  const contributed = new Map<string, { by: string; roles: string }>(own.map((p) => [p, { by: 'organizations', roles: '' }]))
  return {
    names,
    contribute(by, permission, roles) {
      const [resource, action, ...rest] = typeof permission === 'string' ? permission.split(':') : []
      if (!resource || !action || rest.length || !namePattern.test(resource) || !namePattern.test(action)) {
        throw configurationError(`organizations: ${by} contributes the permission ${JSON.stringify(permission)}; expected "resource:action", each letters, digits, "-" and "_"`)
      }
      if (!Array.isArray(roles) || roles.some((r) => !builtInRoles.includes(r))) throw configurationError(`organizations: ${by} gives ${permission} to ${JSON.stringify(roles)}; expected built-in roles (${builtInRoles.join(', ')})`)
      const said = [...new Set(roles)].sort().join()
      const held = contributed.get(permission)
      if (held && held.by === by && held.roles === said) return
      if (held) throw configurationError(`organizations: the permission ${permission} is contributed twice (by ${held.by} and by ${by}); each permission is one plugin's`)
      contributed.set(permission, { by, roles: said })
      for (const role of ['owner', ...roles]) grants.get(role)!.add(permission)
    },
    has: (role) => grants.has(role),
    rank: (role) => ranks[role as BuiltInRole] ?? 1,
    allows: (role, permission) => grants.get(role)?.has(permission) === true,
    permissionsOf: (role) => [...(grants.get(role) ?? [])].sort(),
  }
}
