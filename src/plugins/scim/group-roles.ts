/**
 * Groups mapped to roles: a token may carry `groupRoles` (a SCIM group's displayName or externalId
 * → a role of the organizations plugin). A provisioned member in mapped groups gets the highest-
 * ranked of their roles (among equals, the first group by name); in none, the plugin's `role`.
 * Never owner, never a role above the token's creator (checked when the token is made, and again
 * against the creator's role now); an owner's role is never touched.
 */
import { AuthError, useAdapter, type Context } from 'latchkey/server'
import { fire, type Caller } from './events.js'
import { store } from './http.js'
import type { ResolvedScim } from './options.js'
import type { GroupOfUser } from './records.js'

export interface Roles {
  has(role: string): boolean
  rank(role: string): number
}

/** The organizations plugin's role book (scim() checks that plugin is installed). */
export function rolesOf(ctx: Context): Roles {
  const found = ctx.config.plugins.find((p) => p.id === 'organizations') as { roles?: Roles } | undefined
  if (!found?.roles) throw new Error('scim: the organizations plugin carries no role book')
  return found.roles
}

const maxGroups = 50
const bad = (why: string) => new AuthError('InvalidRequest', why, { status: 400 })

/** The `groupRoles` of a token's create: at most 50 groups, each a role that is not owner and not above `creatorRole`. */
export function readGroupRoles(value: unknown, roles: Roles, creatorRole: string): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length > maxGroups) throw bad(`Expected "groupRoles" to be an object of at most ${maxGroups} groups (displayName or externalId), each naming a role`)
  const out: Record<string, string> = {}
  for (const [group, role] of Object.entries(value)) {
    if (!group.trim() || group.length > 256 || /[\u0000-\u001f\u007f]/.test(group)) throw bad('Expected each group of "groupRoles" to be a displayName or externalId of 1 to 256 printable characters')
    if (typeof role !== 'string' || !roles.has(role) || role === 'owner') throw bad('Expected each role of "groupRoles" to be one of the organization\'s roles other than owner')
    if (roles.rank(role) > roles.rank(creatorRole)) throw new AuthError('OrganizationForbidden', 'A group cannot be given a role above yours', { status: 403 })
    out[group] = role
  }
  return out
}

interface Members {
  getMember(organizationId: string, userId: string): Promise<{ role: string } | null>
  setMemberRole(organizationId: string, userId: string, role: string): Promise<'done' | 'missing' | 'last-owner'>
}
export const roleMethods: Array<keyof Members> = ['getMember', 'setMemberRole']
const members = (ctx: Context) => useAdapter<Members>(ctx.config, roleMethods, 'scim (with the organizations plugin)')

/** The most a mapped group may give: the creator's role now (owner counts as admin-or-below, owner itself never given). */
async function ceiling(ctx: Context, caller: Caller, roles: Roles, fallback: string): Promise<number> {
  const creator = caller.createdBy ? await members(ctx).getMember(caller.organization.id, caller.createdBy) : null
  return roles.rank(creator?.role ?? fallback)
}

/** Any mapped role beats the default (an app role ranks as member); among mapped ones the higher rank wins, then the first group. */
function best(caller: Caller, roles: Roles, groups: GroupOfUser[], fallback: string, most: number): string {
  let role: string | undefined
  for (const g of groups) {
    const mapped = caller.groupRoles[g.displayName] ?? (g.externalId !== null ? caller.groupRoles[g.externalId] : undefined)
    if (!mapped || mapped === 'owner' || !roles.has(mapped) || roles.rank(mapped) > most) continue
    if (role === undefined || roles.rank(mapped) > roles.rank(role)) role = mapped
  }
  return role ?? fallback
}

const mapping = (caller: Caller) => Object.keys(caller.groupRoles).length > 0

/** The role a user resource's membership should have now: from its groups where the token maps any. */
export async function roleFor(ctx: Context, options: ResolvedScim, caller: Caller, resourceId: string): Promise<string> {
  if (!mapping(caller)) return options.role
  const roles = rolesOf(ctx)
  const groups = (await store(ctx).groupsOfScimUsers(caller.organization.id, [resourceId]))[resourceId] ?? []
  return best(caller, roles, groups, options.role, await ceiling(ctx, caller, roles, options.role))
}

/** After a group changed (made, replaced, patched, deleted): each affected active member's role follows their groups. */
export async function applyGroupRoles(ctx: Context, options: ResolvedScim, caller: Caller, resourceIds: string[]): Promise<void> {
  if (!mapping(caller) || !resourceIds.length) return
  const roles = rolesOf(ctx)
  const organizationId = caller.organization.id
  const s = store(ctx)
  const m = members(ctx)
  const [groups, most] = await Promise.all([s.groupsOfScimUsers(organizationId, [...new Set(resourceIds)]), ceiling(ctx, caller, roles, options.role)])
  for (const [id, list] of Object.entries(groups)) {
    const user = await s.getScimUser(organizationId, id)
    if (!user?.active) continue
    const member = await m.getMember(organizationId, user.userId)
    const role = best(caller, roles, list, options.role, most)
    if (!member || member.role === 'owner' || member.role === role) continue
    if ((await m.setMemberRole(organizationId, user.userId, role)) !== 'done') continue
    await fire(ctx, 'organizationRoleChanged', { organization: caller.organization, member: { userId: user.userId, role }, from: member.role, via: 'scim', by: caller.token })
  }
}
