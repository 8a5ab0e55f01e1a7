/**
 * What the plugin keeps in the store (`PluginSchema`): its tables in PostgreSQL (store-sql.ts),
 * the same methods in memory (store-memory.ts), what it reads with every session (the active
 * organization, in getSessionAndUser's one round trip), and the cases latchkey/adapter-test runs
 * against every adapter made with the plugin.
 */
import type { PluginSchema } from 'latchkey/server'
import type { DomainStore, LastActiveStore, OrganizationStore } from './records.js'
import { memoryStore } from './store-memory.js'
import { migrations, sessionReadSql, sqlStore } from './store-sql.js'
import { sqlDomainStore } from './store-sql-domains.js'
import { sqlLastActiveStore } from './store-sql-last-active.js'
import { lastActiveCases } from './store-last-active-cases.js'
import { check, day, organizationOf, userWithSession } from './store-case-helpers.js'
import { domainCases } from './store-domain-cases.js'

export type { OrganizationStore } from './records.js'

/** The store methods the plugin calls: checked at start-up, and again at each call (`useAdapter`). */
export const storeMethods: Array<keyof OrganizationStore> = [
  'createOrganization',
  'getOrganization',
  'updateOrganization',
  'deleteOrganization',
  'listOrganizationsOfUser',
  'getMember',
  'getMemberById',
  'listMembers',
  'setMemberRole',
  'removeMember',
  'activeSessionsOf',
  'createInvitation',
  'listInvitations',
  'getInvitationByToken',
  'deleteInvitation',
  'acceptInvitation',
  'addMember',
  'setActiveMember',
  'activeOrganization',
]

/** The verified domains' methods (migration 2): checked at start-up with the others, and at each call. */
export const domainMethods: Array<keyof DomainStore> = ['addDomain', 'listDomains', 'getDomain', 'verifyDomain', 'updateDomain', 'removeDomain', 'verifiedDomain', 'joinByDomain']

/** The last active membership's methods (migration 3): where a new sign-in starts. */
export const lastActiveMethods: Array<keyof LastActiveStore> = ['setLastActiveMember', 'lastActiveMember']

export const organizationSchema: PluginSchema<OrganizationStore & DomainStore & LastActiveStore> = {
  migrations,
  sql: (db) => ({ ...sqlStore(db), ...sqlDomainStore(db), ...sqlLastActiveStore(db) }),
  memory: memoryStore,
  sessionRead: { sql: sessionReadSql, method: 'activeOrganization' },
  tests: {
    ...domainCases,
    ...lastActiveCases,
    'an organization is made with its owner, listed for them, and its slug is unique': async (store) => {
      const { user } = await userWithSession(store)
      const org = await organizationOf(store, user.id)
      const listed = await store.listOrganizationsOfUser(user.id)
      check(listed.length === 1 && listed[0]!.id === org.id && listed[0]!.role === 'owner', 'the owner to see the organization with role owner')
      const again = await store.createOrganization(
        { id: crypto.randomUUID(), name: 'Other', slug: org.slug, logo: null, createdAt: new Date() },
        { id: crypto.randomUUID(), organizationId: '', userId: user.id, role: 'owner', joinedAt: new Date() },
      )
      check(again === null, 'a taken slug to be refused with null')
      check((await store.listOrganizationsOfUser(user.id)).length === 1, 'nothing made by the refused one')
      const other = await organizationOf(store, user.id)
      check((await store.updateOrganization(other.id, { slug: org.slug })) === 'slug-taken', "an update to another's slug to be refused")
      const renamed = await store.updateOrganization(org.id, { name: 'Acme Inc', logo: 'https://example.test/logo.png' })
      check(renamed !== null && renamed !== 'slug-taken' && renamed.name === 'Acme Inc' && renamed.slug === org.slug && renamed.logo === 'https://example.test/logo.png', 'the rename to keep the slug')
    },
    'the last owner can neither be demoted nor removed; a second owner frees the first': async (store) => {
      const { user: owner } = await userWithSession(store)
      const { user: other } = await userWithSession(store)
      const org = await organizationOf(store, owner.id)
      check((await store.setMemberRole(org.id, owner.id, 'admin')) === 'last-owner', 'the last owner kept from a demotion')
      check((await store.removeMember(org.id, owner.id)) === 'last-owner', 'the last owner kept from removal')
      check((await store.setMemberRole(org.id, other.id, 'admin')) === 'missing', 'a non-member to be missing')
      const invitation = { id: crypto.randomUUID(), organizationId: org.id, email: other.email, role: 'member', invitedBy: owner.id, expires: new Date(Date.now() + day), createdAt: new Date() }
      await store.createInvitation({ ...invitation, tokenHash: `hash-${crypto.randomUUID()}` })
      const list = await store.listInvitations(org.id)
      check(list.length === 1 && !('tokenHash' in list[0]!), 'the invitation listed, without its hash')
      check((await store.deleteInvitation(org.id, invitation.id))?.id === invitation.id, 'the invitation revoked')
      const tokenHash = `hash-${crypto.randomUUID()}`
      await store.createInvitation({ ...invitation, id: crypto.randomUUID(), tokenHash })
      const accepted = await store.acceptInvitation({ tokenHash, email: other.email, userId: other.id, memberId: crypto.randomUUID(), now: new Date() })
      check(accepted?.member.role === 'member', 'the invitee a member')
      check((await store.setMemberRole(org.id, other.id, 'owner')) === 'done', 'a second owner')
      check((await store.setMemberRole(org.id, owner.id, 'member')) === 'done', 'the first owner demoted once another is owner')
      check((await store.removeMember(org.id, other.id)) === 'last-owner', 'the now last owner kept')
      check((await store.removeMember(org.id, owner.id)) === 'done', 'a member removed')
      check((await store.listMembers(org.id)).map((m) => m.userId).join() === other.id, 'one member left')
    },
    'a provisioned member is added once, keeps their role when added again, and their sessions in the organization are listed': async (store) => {
      const { user: owner } = await userWithSession(store)
      const { user, sessionToken } = await userWithSession(store)
      const org = await organizationOf(store, owner.id)
      const member = { id: crypto.randomUUID(), organizationId: org.id, userId: user.id, role: 'member', joinedAt: new Date() }
      const first = await store.addMember(member)
      check(first?.added === true && first.member.id === member.id, 'the member added')
      const again = await store.addMember({ ...member, id: crypto.randomUUID(), role: 'admin' })
      check(again?.added === false && again.member.id === member.id && again.member.role === 'member', 'a member added again to keep their membership and role')
      check((await store.addMember({ ...member, id: crypto.randomUUID(), organizationId: crypto.randomUUID() })) === null, 'no member of an organization that is not')
      check((await store.activeSessionsOf(org.id, user.id)).length === 0, 'no session in the organization at first')
      await store.setActiveMember(sessionToken, member.id)
      check((await store.activeSessionsOf(org.id, user.id)).join() === sessionToken, 'the session in the organization listed')
      check((await store.activeSessionsOf(org.id, owner.id)).length === 0, "another member's list empty")
    },
    'an invitation is spent once, only by its address, not after expiry, and a new one replaces it': async (store) => {
      const { user: owner } = await userWithSession(store)
      const { user: invitee } = await userWithSession(store)
      const org = await organizationOf(store, owner.id)
      const base = { organizationId: org.id, email: invitee.email, role: 'admin', invitedBy: owner.id, createdAt: new Date() }
      const old = `hash-${crypto.randomUUID()}`
      await store.createInvitation({ ...base, id: crypto.randomUUID(), tokenHash: old, expires: new Date(Date.now() + day) })
      const fresh = `hash-${crypto.randomUUID()}`
      await store.createInvitation({ ...base, id: crypto.randomUUID(), tokenHash: fresh, expires: new Date(Date.now() + day) })
      check((await store.listInvitations(org.id)).length === 1, 'one invitation per address')
      check((await store.getInvitationByToken(old)) === null, 'the replaced token gone')
      check((await store.getInvitationByToken(fresh))?.organizationName === org.name, 'the new token found with its organization')
      const accept = (tokenHash: string, email: string, now = new Date()) => store.acceptInvitation({ tokenHash, email, userId: invitee.id, memberId: crypto.randomUUID(), now })
      check((await accept(fresh, 'someone-else@example.test')) === null, 'another address refused')
      check((await accept(fresh, invitee.email, new Date(Date.now() + 2 * day))) === null, 'an expired invitation refused')
      const [first, second] = await Promise.all([accept(fresh, invitee.email), accept(fresh, invitee.email)])
      check([first, second].filter(Boolean).length === 1, 'one winner of two at once')
      check((first ?? second)!.member.role === 'admin', 'the role the invitation gave')
    },
    'a member added by another plugin gets the role once, twice at once too, and one already a member keeps theirs': async (store) => {
      const { user: owner } = await userWithSession(store)
      const { user } = await userWithSession(store)
      const org = await organizationOf(store, owner.id)
      const add = (userId: string, role: string) => store.addMember({ id: crypto.randomUUID(), organizationId: org.id, userId, role, joinedAt: new Date() })
      const both = await Promise.all([add(user.id, 'admin'), add(user.id, 'member')])
      check(both.filter((r) => r?.added).length === 1, 'one of two at once to add the member')
      const kept = (await store.getMember(org.id, user.id))!.role
      check((await add(user.id, 'member'))?.added === false && (await store.getMember(org.id, user.id))!.role === kept, 'a member to keep their role')
      check((await add(owner.id, 'member'))?.member.role === 'owner', 'the owner to stay owner')
      check((await store.addMember({ id: crypto.randomUUID(), organizationId: crypto.randomUUID(), userId: user.id, role: 'member', joinedAt: new Date() })) === null, 'no member of an organization that is not')
    },
    'the session read carries the active organization, live: gone once the member is removed or the organization deleted': async (store) => {
      const { user: owner } = await userWithSession(store)
      const { user, sessionToken } = await userWithSession(store)
      const org = await organizationOf(store, owner.id)
      const tokenHash = `hash-${crypto.randomUUID()}`
      await store.createInvitation({ id: crypto.randomUUID(), organizationId: org.id, email: user.email, role: 'member', invitedBy: owner.id, tokenHash, expires: new Date(Date.now() + day), createdAt: new Date() })
      const { member } = (await store.acceptInvitation({ tokenHash, email: user.email, userId: user.id, memberId: crypto.randomUUID(), now: new Date() }))!
      const read = async () => (await store.getSessionAndUser!(sessionToken))?.session.pluginData?.organizations
      check((await read()) === null, 'no active organization at first')
      await store.setActiveMember(sessionToken, member.id)
      const expected = JSON.stringify({ id: org.id, slug: org.slug, role: 'member' })
      check(JSON.stringify(await read()) === expected, `the session read to carry ${expected}, got ${JSON.stringify(await read())}`)
      check(JSON.stringify(await store.activeOrganization(sessionToken, user.id)) === expected, 'the method to answer as the read')
      await store.setMemberRole(org.id, user.id, 'admin')
      check((await read() as { role?: string })?.role === 'admin', 'the role read live')
      await store.removeMember(org.id, user.id)
      check((await read()) === null, 'no active organization once removed')
      const { sessionToken: ownerSession } = await userWithSession(store)
      const ownerMember = await store.getMember(org.id, owner.id)
      await store.createSession!({ sessionToken: `${ownerSession}-2`, userId: owner.id, expires: new Date(Date.now() + day) })
      await store.setActiveMember(`${ownerSession}-2`, ownerMember!.id)
      check((await store.getSessionAndUser!(`${ownerSession}-2`))?.session.pluginData?.organizations !== null, 'the owner active')
      check(await store.deleteOrganization(org.id), 'the organization deleted')
      check((await store.getSessionAndUser!(`${ownerSession}-2`))?.session.pluginData?.organizations === null, 'no active organization once deleted')
      check((await store.getMemberById(ownerMember!.id)) === null, 'the memberships gone with it')
    },
  },
}
