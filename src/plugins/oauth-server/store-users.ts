/**
 * The store's methods for the user's side (connected-apps.ts, account-events.ts): the grants and
 * consents one user gave, and revoking them all at once (of one client, or every client). Joined
 * to the schema in store.ts, over the same tables and memory maps.
 */
import type { SchemaQueryable } from 'latchkey/server'

/** What these methods read of a grant (store.ts's `Grant`). */
interface GrantRecord {
  id: string
  clientId: string
  userId: string | null
  scope: string
  createdAt: Date
  revokedAt: Date | null
}

/** A grant not revoked, as the user's list reads it. */
export interface UserGrant {
  clientId: string
  scope: string
  createdAt: Date
  /** When one of its refresh tokens was last spent (the client's last new tokens); null: never refreshed. */
  lastRefreshAt: Date | null
  /** One of its refresh tokens is unspent and unexpired at the instant asked. */
  live: boolean
}

export interface UserConsent {
  clientId: string
  scope: string
  createdAt: Date
}

export interface UserGrantsStore {
  /** The user's grants that are not revoked, oldest first. */
  listOAuthUserGrants(userId: string, now: Date): Promise<UserGrant[]>
  /** Every consent the user gave, any client. */
  listOAuthUserConsents(userId: string): Promise<UserConsent[]>
  /**
   * Revokes every grant of the user (of `clientId` alone where given) at `at`, their refresh and
   * access tokens with them; with `forget`, the consents go too (the next request asks again).
   * Answers how many grants it revoked.
   */
  revokeOAuthUserGrants(userId: string, clientId: string | null, at: Date, forget: boolean): Promise<number>
}

const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string))

export const userGrantsSql = (db: SchemaQueryable): UserGrantsStore => ({
  async listOAuthUserGrants(userId, now) {
    const { rows } = await db.query<{ client_id: string; scope: string; created_at: unknown; last_refresh_at: unknown; live: boolean }>(
      `SELECT g.client_id, g.scope, g.created_at,
         (SELECT max(r.used_at) FROM oauth_server_refresh_tokens r WHERE r.grant_id = g.id) AS last_refresh_at,
         EXISTS (SELECT 1 FROM oauth_server_refresh_tokens r WHERE r.grant_id = g.id AND r.used_at IS NULL AND r.expires_at > $2) AS live
       FROM oauth_server_grants g WHERE g.user_id = $1 AND g.revoked_at IS NULL ORDER BY g.created_at, g.id`,
      [userId, now],
    )
    return rows.map((r) => ({ clientId: r.client_id, scope: r.scope, createdAt: date(r.created_at), lastRefreshAt: r.last_refresh_at == null ? null : date(r.last_refresh_at), live: r.live === true }))
  },
  async listOAuthUserConsents(userId) {
    const { rows } = await db.query<{ client_id: string; scope: string; created_at: unknown }>('SELECT client_id, scope, created_at FROM oauth_server_consents WHERE user_id = $1 ORDER BY created_at', [userId])
    return rows.map((r) => ({ clientId: r.client_id, scope: r.scope, createdAt: date(r.created_at) }))
  },
  async revokeOAuthUserGrants(userId, clientId, at, forget) {
    const { rows } = await db.query('UPDATE oauth_server_grants SET revoked_at = $3 WHERE user_id = $1 AND ($2::text IS NULL OR client_id = $2) AND revoked_at IS NULL RETURNING id', [userId, clientId, at])
    if (forget) await db.query('DELETE FROM oauth_server_consents WHERE user_id = $1 AND ($2::text IS NULL OR client_id = $2)', [userId, clientId])
    return rows.length
  },
})

/** The same over the memory store's maps; `consents` by `[userId, clientId, scope]` as JSON, to when given. */
export function userGrantsMemory(grants: Map<string, GrantRecord>, refresh: Map<string, { grantId: string; expires: Date; usedAt: Date | null }>, consents: Map<string, Date>): UserGrantsStore {
  const parsed = () => [...consents].map(([key, createdAt]) => ({ key, createdAt, parts: JSON.parse(key) as [string, string, string] }))
  return {
    async listOAuthUserGrants(userId, now) {
      const tokens = [...refresh.values()]
      return [...grants.values()]
        .filter((g) => g.userId === userId && !g.revokedAt)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map((g) => {
          const mine = tokens.filter((t) => t.grantId === g.id)
          const used = mine.flatMap((t) => (t.usedAt ? [t.usedAt.getTime()] : []))
          return { clientId: g.clientId, scope: g.scope, createdAt: new Date(g.createdAt), lastRefreshAt: used.length ? new Date(Math.max(...used)) : null, live: mine.some((t) => !t.usedAt && t.expires > now) }
        })
    },
    async listOAuthUserConsents(userId) {
      return parsed()
        .filter(({ parts }) => parts[0] === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(({ parts, createdAt }) => ({ clientId: parts[1], scope: parts[2], createdAt: new Date(createdAt) }))
    },
    async revokeOAuthUserGrants(userId, clientId, at, forget) {
      let revoked = 0
      for (const g of grants.values()) {
        if (g.userId === userId && (clientId === null || g.clientId === clientId) && !g.revokedAt) (g.revokedAt = new Date(at)), revoked++
      }
      if (forget) for (const { key, parts } of parsed()) if (parts[0] === userId && (clientId === null || parts[1] === clientId)) consents.delete(key)
      return revoked
    },
  }
}

/** The adapter-test cases of these methods. */
export const userGrantsTests = {
  "a user's grants and consents are listed and revoked by user and client, nobody else's": async (store: UserGrantsStore & { createOAuthGrant(g: GrantRecord & { resource: string; codeHash: string | null; codeChallenge: string | null; redirectUri: string | null; authTime: Date | null }): Promise<void>; saveOAuthConsent(c: { userId: string; clientId: string; scope: string; at: Date }): Promise<void>; getOAuthGrant(id: string): Promise<GrantRecord | null>; createOAuthRefreshToken(t: { tokenHash: string; grantId: string; expires: Date }): Promise<void>; useOAuthRefreshToken(hash: string, at: Date): Promise<unknown> }) => {
    const tag = crypto.randomUUID()
    const [me, other] = [`me-${tag}`, `other-${tag}`]
    const grant = (id: string, userId: string, clientId: string, at: number) => ({ id: `${id}-${tag}`, clientId, userId, scope: 'a', resource: 'https://r.example', codeHash: null, codeChallenge: null, redirectUri: null, authTime: null, createdAt: new Date(at), revokedAt: null })
    await store.createOAuthGrant(grant('g1', me, 'c1', 1000))
    await store.createOAuthGrant(grant('g2', me, 'c2', 2000))
    await store.createOAuthGrant(grant('g3', other, 'c1', 3000))
    await store.createOAuthRefreshToken({ tokenHash: `t1-${tag}`, grantId: `g1-${tag}`, expires: new Date(Date.now() + 60_000) })
    await store.createOAuthRefreshToken({ tokenHash: `t2-${tag}`, grantId: `g1-${tag}`, expires: new Date(Date.now() + 60_000) })
    await store.useOAuthRefreshToken(`t1-${tag}`, new Date(5000))
    await store.saveOAuthConsent({ userId: me, clientId: 'c1', scope: 'a', at: new Date(1000) })
    await store.saveOAuthConsent({ userId: other, clientId: 'c1', scope: 'a', at: new Date(3000) })
    const listed = await store.listOAuthUserGrants(me, new Date())
    if (listed.map((g) => g.clientId).join() !== 'c1,c2' || listed[0]!.lastRefreshAt?.getTime() !== 5000 || !listed[0]!.live || listed[1]!.live || listed[1]!.lastRefreshAt !== null) throw new Error(`expected c1 (refreshed at 5000, live) and c2, got ${JSON.stringify(listed)}`)
    const consents = await store.listOAuthUserConsents(me)
    if (consents.length !== 1 || consents[0]!.clientId !== 'c1' || consents[0]!.createdAt.getTime() !== 1000) throw new Error(`expected one consent to c1, got ${JSON.stringify(consents)}`)
    if ((await store.revokeOAuthUserGrants(me, 'c1', new Date(6000), true)) !== 1) throw new Error('expected one grant of c1 revoked')
    if ((await store.getOAuthGrant(`g1-${tag}`))?.revokedAt?.getTime() !== 6000 || (await store.getOAuthGrant(`g3-${tag}`))?.revokedAt) throw new Error("expected my grant of c1 revoked and the other user's not")
    if ((await store.listOAuthUserConsents(me)).length || (await store.listOAuthUserConsents(other)).length !== 1) throw new Error("expected my consent gone and the other user's kept")
    if ((await store.revokeOAuthUserGrants(me, null, new Date(7000), false)) !== 1 || (await store.listOAuthUserGrants(me, new Date())).length) throw new Error('expected the rest of my grants revoked')
  },
}
