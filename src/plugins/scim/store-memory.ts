/** The SCIM store kept in memory (MemoryAdapter), with the SQL store's rules: a new, empty one at each call. */
import type { ScimGroupRecord, ScimStore, ScimTokenRecord, ScimUserRecord } from './records.js'

export function memoryStore(): ScimStore {
  const tokens = new Map<string, ScimTokenRecord & { tokenHash: string }>()
  const users = new Map<string, ScimUserRecord>()
  const groups = new Map<string, ScimGroupRecord>()
  const copy = <T>(value: T): T => structuredClone(value)
  const publicToken = ({ tokenHash: _, ...rest }: ScimTokenRecord & { tokenHash: string }): ScimTokenRecord => copy(rest)
  const ordered = <T extends { createdAt: Date; id: string }>(list: T[]) => list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
  const userTaken = (u: Pick<ScimUserRecord, 'organizationId' | 'userName' | 'userId' | 'id'>) =>
    [...users.values()].some((o) => o.organizationId === u.organizationId && o.id !== u.id && (o.userName.toLowerCase() === u.userName.toLowerCase() || o.userId === u.userId))
  const groupTaken = (g: Pick<ScimGroupRecord, 'organizationId' | 'displayName' | 'id'>) =>
    [...groups.values()].some((o) => o.organizationId === g.organizationId && o.id !== g.id && o.displayName.toLowerCase() === g.displayName.toLowerCase())
  const ownMembers = (organizationId: string, ids: string[]) => [...new Set(ids)].filter((id) => users.get(id)?.organizationId === organizationId).sort()
  const mine = <T extends { organizationId: string }>(found: T | undefined, organizationId: string) => (found && found.organizationId === organizationId ? found : undefined)
  const pageOf = <T>(list: T[], { offset, limit }: { offset: number; limit: number }) => list.slice(offset, offset + limit).map(copy)

  return {
    async createScimToken(token) {
      const stored = { ...copy(token), groupRoles: copy(token.groupRoles ?? {}) }
      tokens.set(token.id, stored)
      return publicToken(stored)
    },
    async listScimTokens(organizationId) {
      return ordered([...tokens.values()].filter((t) => t.organizationId === organizationId)).map(publicToken)
    },
    async deleteScimToken(organizationId, id) {
      return !!mine(tokens.get(id), organizationId) && tokens.delete(id)
    },
    async scimTokenByHash(tokenHash) {
      const found = [...tokens.values()].find((t) => t.tokenHash === tokenHash)
      return found ? publicToken(found) : null
    },
    async createScimUser(user) {
      if (userTaken(user)) return 'taken'
      users.set(user.id, copy(user))
      return copy(user)
    },
    async getScimUser(organizationId, id) {
      const found = mine(users.get(id), organizationId)
      return found ? copy(found) : null
    },
    async listScimUsers(organizationId, where, page) {
      const all = ordered(
        [...users.values()].filter(
          (u) =>
            u.organizationId === organizationId &&
            (where.userName === undefined || u.userName.toLowerCase() === where.userName.toLowerCase()) &&
            (where.externalId === undefined || u.externalId === where.externalId),
        ),
      )
      return { total: all.length, users: pageOf(all, page) }
    },
    async updateScimUser(organizationId, id, changes) {
      const found = mine(users.get(id), organizationId)
      if (!found) return null
      if (userTaken({ ...found, userName: changes.userName })) return 'taken'
      const next = { ...found, ...copy(changes), version: found.version + 1 }
      users.set(id, next)
      return copy(next)
    },
    async deleteScimUser(organizationId, id) {
      const found = mine(users.get(id), organizationId)
      if (!found) return null
      users.delete(id)
      for (const g of groups.values()) g.members = g.members.filter((m) => m !== id)
      return copy(found)
    },
    async createScimGroup(group) {
      if (groupTaken(group)) return 'taken'
      const stored = { ...copy(group), members: ownMembers(group.organizationId, group.members) }
      groups.set(group.id, stored)
      return copy(stored)
    },
    async getScimGroup(organizationId, id) {
      const found = mine(groups.get(id), organizationId)
      return found ? copy(found) : null
    },
    async listScimGroups(organizationId, where, page) {
      const all = ordered(
        [...groups.values()].filter(
          (g) =>
            g.organizationId === organizationId &&
            (where.displayName === undefined || g.displayName.toLowerCase() === where.displayName.toLowerCase()) &&
            (where.externalId === undefined || g.externalId === where.externalId),
        ),
      )
      return { total: all.length, groups: pageOf(all, page) }
    },
    async updateScimGroup(organizationId, id, changes) {
      const found = mine(groups.get(id), organizationId)
      if (!found) return null
      if (groupTaken({ ...found, displayName: changes.displayName })) return 'taken'
      const next = { ...found, ...copy(changes), members: ownMembers(organizationId, changes.members), version: found.version + 1 }
      groups.set(id, next)
      return copy(next)
    },
    async deleteScimGroup(organizationId, id) {
      return !!mine(groups.get(id), organizationId) && groups.delete(id)
    },
    async groupsOfScimUser(organizationId, id) {
      return [...groups.values()]
        .filter((g) => g.organizationId === organizationId && g.members.includes(id))
        .map((g) => ({ id: g.id, displayName: g.displayName }))
        .sort((a, b) => (a.displayName < b.displayName ? -1 : 1))
    },
    async groupsOfScimUsers(organizationId, ids) {
      const mineSorted = [...groups.values()].filter((g) => g.organizationId === organizationId).sort((a, b) => (a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : a.id < b.id ? -1 : 1))
      return Object.fromEntries(ids.map((id) => [id, mineSorted.filter((g) => g.members.includes(id)).map((g) => ({ id: g.id, displayName: g.displayName, externalId: g.externalId }))]))
    },
  }
}
