/** The sso store kept in memory (MemoryAdapter), with the SQL store's rules: a new, empty one at each call. */
import type { ConnectionRecord, SsoStore } from './records.js'

export function memoryStore(): SsoStore {
  const connections = new Map<string, ConnectionRecord>()
  const once = new Map<string, number>()
  const copy = <T>(value: T): T => structuredClone(value)
  const ordered = (list: ConnectionRecord[]) => list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)).map(copy)
  const held = (organizationId: string, id: string) => {
    const found = connections.get(id)
    return found && found.organizationId === organizationId ? found : undefined
  }
  return {
    async createSsoConnection(c) {
      connections.set(c.id, copy(c))
      return copy(c)
    },
    async getSsoConnection(id) {
      const found = connections.get(id)
      return found ? copy(found) : null
    },
    async listSsoConnections(organizationId) {
      return ordered([...connections.values()].filter((c) => c.organizationId === organizationId))
    },
    async updateSsoConnection(organizationId, id, changes) {
      const found = held(organizationId, id)
      if (!found) return null
      const next = { ...found, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as ConnectionRecord
      connections.set(id, copy(next))
      return copy(next)
    },
    async deleteSsoConnection(organizationId, id) {
      return !!held(organizationId, id) && connections.delete(id)
    },
    async listSsoConnectionsForDomain(domain) {
      return ordered([...connections.values()].filter((c) => c.domains.includes(domain)))
    },
    async useSsoOnce(key, expires, now) {
      for (const [k, until] of once) if (until <= now.getTime()) once.delete(k)
      if (once.has(key)) return false
      once.set(key, expires.getTime())
      return true
    },
  }
}
