/** The organizations store kept in memory (MemoryAdapter), with the SQL store's rules: a new, empty one at each call. */
import type { DomainRecord, DomainStore, InvitationRecord, LastActiveStore, MemberRecord, OrganizationRecord, OrganizationStore } from './records.js'

export function memoryStore(): OrganizationStore & DomainStore & LastActiveStore {
  const organizations = new Map<string, OrganizationRecord>()
  const members = new Map<string, MemberRecord>()
  const invitations = new Map<string, InvitationRecord & { tokenHash: string }>()
  /** Stored session token → membership id. */
  const active = new Map<string, string>()
  const domains = new Map<string, DomainRecord & { challengeHash: string | null }>()
  /** User id → the membership id they last made active. */
  const lastActive = new Map<string, string>()

  const copy = <T extends object>(value: T): T => structuredClone(value)
  const memberOf = (organizationId: string, userId: string) => [...members.values()].find((m) => m.organizationId === organizationId && m.userId === userId)
  const slugTaken = (slug: string, except?: string) => [...organizations.values()].some((o) => o.slug === slug && o.id !== except)
  const lastOwner = (member: MemberRecord) =>
    member.role === 'owner' && ![...members.values()].some((m) => m.organizationId === member.organizationId && m.role === 'owner' && m.id !== member.id)
  const publicDomain = ({ challengeHash: _, ...rest }: DomainRecord & { challengeHash: string | null }): DomainRecord => copy(rest)
  const domainOf = (organizationId: string, domainId: string) => {
    const found = domains.get(domainId)
    return found && found.organizationId === organizationId ? found : undefined
  }
  const verifiedOf = (domain: string) => [...domains.values()].find((d) => d.domain === domain && d.verifiedAt !== null)
  const publicInvitation = ({ tokenHash: _, ...rest }: InvitationRecord & { tokenHash: string }): InvitationRecord => copy(rest)

  return {
    async createOrganization(org, owner) {
      if (slugTaken(org.slug)) return null
      organizations.set(org.id, copy(org))
      members.set(owner.id, copy({ ...owner, organizationId: org.id, role: 'owner' }))
      return copy(org)
    },
    async getOrganization(id) {
      const found = organizations.get(id)
      return found ? copy(found) : null
    },
    async updateOrganization(id, changes) {
      const found = organizations.get(id)
      if (!found) return null
      if (changes.slug !== undefined && slugTaken(changes.slug, id)) return 'slug-taken'
      const next = { ...found, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) }
      organizations.set(id, next)
      return copy(next)
    },
    async deleteOrganization(id) {
      if (!organizations.delete(id)) return false
      for (const [key, m] of members) if (m.organizationId === id) members.delete(key)
      for (const [key, i] of invitations) if (i.organizationId === id) invitations.delete(key)
      for (const [key, d] of domains) if (d.organizationId === id) domains.delete(key)
      return true
    },
    async listOrganizationsOfUser(userId) {
      return [...members.values()]
        .filter((m) => m.userId === userId && organizations.has(m.organizationId))
        .map((m) => ({ ...copy(organizations.get(m.organizationId)!), role: m.role }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1))
    },
    async getMember(organizationId, userId) {
      const found = memberOf(organizationId, userId)
      return found ? copy(found) : null
    },
    async getMemberById(memberId) {
      const found = members.get(memberId)
      const org = found && organizations.get(found.organizationId)
      return found && org ? { ...copy(found), slug: org.slug } : null
    },
    async listMembers(organizationId) {
      return [...members.values()].filter((m) => m.organizationId === organizationId).sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime()).map(copy)
    },
    async setMemberRole(organizationId, userId, role) {
      const found = memberOf(organizationId, userId)
      if (!found) return 'missing'
      if (role !== 'owner' && lastOwner(found)) return 'last-owner'
      found.role = role
      return 'done'
    },
    async removeMember(organizationId, userId) {
      const found = memberOf(organizationId, userId)
      if (!found) return 'missing'
      if (lastOwner(found)) return 'last-owner'
      members.delete(found.id)
      return 'done'
    },
    async activeSessionsOf(organizationId, userId) {
      const member = memberOf(organizationId, userId)
      return member ? [...active].filter(([, memberId]) => memberId === member.id).map(([token]) => token) : []
    },
    async createInvitation(inv) {
      for (const [key, i] of invitations) if (i.organizationId === inv.organizationId && i.email === inv.email) invitations.delete(key)
      invitations.set(inv.id, copy(inv))
      return publicInvitation(inv)
    },
    async listInvitations(organizationId) {
      return [...invitations.values()].filter((i) => i.organizationId === organizationId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(publicInvitation)
    },
    async getInvitationByToken(tokenHash) {
      const found = [...invitations.values()].find((i) => i.tokenHash === tokenHash)
      const org = found && organizations.get(found.organizationId)
      return found && org ? { ...publicInvitation(found), organizationName: org.name } : null
    },
    async deleteInvitation(organizationId, invitationId) {
      const found = invitations.get(invitationId)
      if (!found || found.organizationId !== organizationId) return null
      invitations.delete(invitationId)
      return publicInvitation(found)
    },
    async acceptInvitation({ tokenHash, email, userId, memberId, now }) {
      const found = [...invitations.values()].find((i) => i.tokenHash === tokenHash && i.email === email && i.expires.getTime() > now.getTime())
      if (!found || !organizations.has(found.organizationId)) return null
      invitations.delete(found.id)
      let member = memberOf(found.organizationId, userId)
      if (!member) {
        member = { id: memberId, organizationId: found.organizationId, userId, role: found.role, joinedAt: new Date(now) }
        members.set(memberId, member)
      }
      return { invitation: publicInvitation(found), member: copy(member) }
    },
    async addMember(member) {
      if (!organizations.has(member.organizationId)) return null
      const held = memberOf(member.organizationId, member.userId)
      if (held) return { member: copy(held), added: false }
      members.set(member.id, copy(member))
      return { member: copy(member), added: true }
    },
    async setActiveMember(sessionToken, memberId) {
      if (memberId === null) active.delete(sessionToken)
      else active.set(sessionToken, memberId)
    },
    async activeOrganization(sessionToken, userId) {
      const member = members.get(active.get(sessionToken) ?? '')
      const org = member && member.userId === userId ? organizations.get(member.organizationId) : undefined
      return member && org ? { id: org.id, slug: org.slug, role: member.role } : null
    },
    async setLastActiveMember(userId, memberId) {
      if (memberId === null) lastActive.delete(userId)
      else if (members.get(memberId)?.userId === userId) lastActive.set(userId, memberId)
    },
    async lastActiveMember(userId) {
      const member = members.get(lastActive.get(userId) ?? '')
      return member && member.userId === userId && organizations.has(member.organizationId) ? copy(member) : null
    },
    async addDomain(record) {
      const held = [...domains.values()].find((d) => d.organizationId === record.organizationId && d.domain === record.domain)
      if (held?.verifiedAt) return publicDomain(held)
      if (held) {
        held.challengeHash = record.challengeHash
        return publicDomain(held)
      }
      domains.set(record.id, copy(record))
      return publicDomain(record)
    },
    async listDomains(organizationId) {
      return [...domains.values()].filter((d) => d.organizationId === organizationId).sort((a, b) => (a.domain < b.domain ? -1 : 1)).map(publicDomain)
    },
    async getDomain(organizationId, domainId) {
      const found = domainOf(organizationId, domainId)
      return found ? copy(found) : null
    },
    async verifyDomain(organizationId, domainId, now) {
      const found = domainOf(organizationId, domainId)
      if (!found) return null
      const other = verifiedOf(found.domain)
      if (other && other.id !== found.id) return 'taken'
      found.verifiedAt ??= new Date(now)
      found.challengeHash = null
      return publicDomain(found)
    },
    async updateDomain(organizationId, domainId, changes) {
      const found = domainOf(organizationId, domainId)
      if (!found) return null
      if (changes.role !== undefined) found.role = changes.role
      if (changes.autoJoin !== undefined) found.autoJoin = changes.autoJoin
      return publicDomain(found)
    },
    async removeDomain(organizationId, domainId) {
      const found = domainOf(organizationId, domainId)
      if (!found) return null
      domains.delete(domainId)
      return publicDomain(found)
    },
    async verifiedDomain(domain) {
      const found = verifiedOf(domain)
      const org = found && organizations.get(found.organizationId)
      return found && org ? { ...publicDomain(found), organization: copy(org) } : null
    },
    async joinByDomain({ organizationId, domain, userId, memberId, now }) {
      const found = verifiedOf(domain)
      if (!found || found.organizationId !== organizationId || !organizations.has(organizationId) || memberOf(organizationId, userId)) return null
      const member = { id: memberId, organizationId, userId, role: found.role, joinedAt: new Date(now) }
      members.set(memberId, member)
      return copy(member)
    },
  }
}
