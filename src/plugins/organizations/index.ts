/**
 * latchkey/plugins/organizations: organizations, members, roles and invitations, and the active
 * organization in the session (docs/organizations.md).
 *   const orgs = organizations({ roles: { editor: { project: ['read', 'update'] } } })
 *   const adapter = await openDatabase({ plugins: [orgs] })
 *   const auth = Latchkey({ adapter, plugins: [orgs], providers: [...] })
 *   await auth.can(request, 'project:update')
 * Written as any plugin outside latchkey would be: it imports only latchkey/server.
 */
export { organizations, type OrganizationsPlugin } from './plugin.js'
export type { OrganizationsOptions } from './options.js'
export type { Permissions, RoleBook } from './roles.js'
export { builtInRoles, adminPermissions } from './roles.js'
export type { DomainOrganization } from './domains.js'
export type { DomainRecord, DomainStore, LastActiveStore, VerifiedDomain } from './records.js'
export type { ResolveTxt } from './dns.js'
export { normalizeDomain } from './domain-name.js'
export type { ActiveOrganization, InvitationRecord, ListedMember, MemberChange, MemberRecord, OrganizationRecord, OrganizationStore } from './records.js'
export type { DomainEventInfo } from './events.js'
export type { Actor, ScimTokenActor, InvitationEventInfo, MemberEventInfo, OrganizationEventInfo, OrganizationEvents } from './events.js'
export { organizationSchema } from './store.js'
