/**
 * What the authorization server keeps (`LatchkeyPlugin.schema`): its signing keys (private halves
 * sealed under the app's secret), pending authorization requests (PAR's and the ones a person is
 * answering), grants (one per authorization: the family its refresh tokens belong to), refresh
 * tokens (hashed, each usable once), and remembered consents. Authorization codes are the kernel's
 * one-time verification tokens, so "used once" is the adapter's atomic `useVerificationToken`.
 * The same methods in PostgreSQL and in memory, with the cases `latchkey/adapter-test` runs.
 */
import type { PluginSchema } from 'latchkey/server'
import type { JWK } from 'jose'
import { clientsMemory, clientsMigration, clientsSql, clientsTests, type RegisteredClientStore } from './store-clients.js'
import { deviceMemory, deviceMigration, deviceSql, deviceTests, type DeviceStore } from './device-store.js'
import { userGrantsMemory, userGrantsSql, userGrantsTests, type UserGrantsStore } from './store-users.js'

export interface StoredKey {
  kid: string
  alg: string
  publicJwk: JWK
  /** The private JWK, encrypted under the app's secret (keys.ts). */
  sealedPrivate: string
  createdAt: Date
}

export interface StoredRequest {
  id: string
  clientId: string
  params: Record<string, string>
  expires: Date
}

export interface Grant {
  id: string
  clientId: string
  /** The user who consented; null for client_credentials. */
  userId: string | null
  scope: string
  resource: string
  /** SHA-256 of the authorization code that started it (to tell a replayed code from a guessed one); null without a code. */
  codeHash: string | null
  /** The PKCE challenge (S256) and redirect URI of the authorization request; null without a code. */
  codeChallenge: string | null
  redirectUri: string | null
  authTime: Date | null
  createdAt: Date
  revokedAt: Date | null
}

export type RefreshUse = { result: 'used'; grantId: string; expires: Date } | { result: 'reused'; grantId: string } | { result: 'unknown' }

export interface OAuthServerStore extends RegisteredClientStore, DeviceStore, UserGrantsStore {
  /** Newest first. */
  listOAuthKeys(): Promise<StoredKey[]>
  addOAuthKey(key: StoredKey): Promise<void>
  deleteOAuthKeys(kids: string[]): Promise<void>
  createOAuthRequest(request: StoredRequest): Promise<void>
  getOAuthRequest(id: string): Promise<StoredRequest | null>
  /** Removes and answers it: one caller wins. */
  useOAuthRequest(id: string): Promise<StoredRequest | null>
  createOAuthGrant(grant: Grant): Promise<void>
  getOAuthGrant(id: string): Promise<Grant | null>
  /** Marks it revoked (the first instant stays); its refresh tokens and access tokens stop working. */
  revokeOAuthGrant(id: string, at: Date): Promise<void>
  createOAuthRefreshToken(token: { tokenHash: string; grantId: string; expires: Date }): Promise<void>
  /** Spends the token once: `used` for the one caller that wins, `reused` for a token spent before. */
  useOAuthRefreshToken(tokenHash: string, at: Date): Promise<RefreshUse>
  getOAuthRefreshToken(tokenHash: string): Promise<{ grantId: string; expires: Date; usedAt: Date | null } | null>
  /** The scope sets (space-separated, sorted) the user allowed the client. */
  listOAuthConsents(userId: string, clientId: string): Promise<string[]>
  saveOAuthConsent(consent: { userId: string; clientId: string; scope: string; at: Date }): Promise<void>
  /**
   * Deletes at most `limit` of each: pending requests and refresh tokens expired before `now`, and
   * grants revoked before `unusedSince` or whose code was issued and whose last refresh token
   * expired before it (its refresh tokens and key go with it). The caller sets `unusedSince` an
   * access token's and a code's lifetimes before `now`: no token of such a grant still works.
   */
  purgeOAuthRecords(now: Date, unusedSince: Date, limit: number): Promise<void>
}

const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string))
const keyRow = (r: Record<string, unknown>): StoredKey => ({
  kid: r.kid as string,
  alg: r.alg as string,
  publicJwk: (typeof r.public_jwk === 'string' ? JSON.parse(r.public_jwk) : r.public_jwk) as JWK,
  sealedPrivate: r.sealed_private as string,
  createdAt: date(r.created_at),
})
const requestRow = (r: Record<string, unknown>): StoredRequest => ({
  id: r.id as string,
  clientId: r.client_id as string,
  params: (typeof r.params === 'string' ? JSON.parse(r.params) : r.params) as Record<string, string>,
  expires: date(r.expires_at),
})
const grantRow = (r: Record<string, unknown>): Grant => ({
  id: r.id as string,
  clientId: r.client_id as string,
  userId: (r.user_id as string | null) ?? null,
  scope: r.scope as string,
  resource: r.resource as string,
  codeHash: (r.code_hash as string | null) ?? null,
  codeChallenge: (r.code_challenge as string | null) ?? null,
  redirectUri: (r.redirect_uri as string | null) ?? null,
  authTime: r.auth_time == null ? null : date(r.auth_time),
  createdAt: date(r.created_at),
  revokedAt: r.revoked_at == null ? null : date(r.revoked_at),
})
const copy = <T>(value: T): T => structuredClone(value)

export const oauthServerSchema: PluginSchema<OAuthServerStore> = {
  migrations: [
    {
      version: 1,
      name: 'keys, requests, grants, refresh tokens, consents',
      statements: [
        `CREATE TABLE oauth_server_keys (kid text PRIMARY KEY, alg text NOT NULL, public_jwk jsonb NOT NULL, sealed_private text NOT NULL, created_at timestamptz NOT NULL)`,
        `CREATE TABLE oauth_server_requests (id text PRIMARY KEY, client_id text NOT NULL, params jsonb NOT NULL, expires_at timestamptz NOT NULL)`,
        `CREATE INDEX oauth_server_requests_expires ON oauth_server_requests (expires_at)`,
        `CREATE TABLE oauth_server_grants (id text PRIMARY KEY, client_id text NOT NULL, user_id text, scope text NOT NULL, resource text NOT NULL, code_hash text,
           code_challenge text, redirect_uri text, auth_time timestamptz, created_at timestamptz NOT NULL, revoked_at timestamptz)`,
        `CREATE INDEX oauth_server_grants_user ON oauth_server_grants (user_id, client_id)`,
        `CREATE TABLE oauth_server_refresh_tokens (token_hash text PRIMARY KEY, grant_id text NOT NULL REFERENCES oauth_server_grants (id) ON DELETE CASCADE,
           expires_at timestamptz NOT NULL, used_at timestamptz)`,
        `CREATE INDEX oauth_server_refresh_tokens_grant ON oauth_server_refresh_tokens (grant_id)`,
        `CREATE INDEX oauth_server_refresh_tokens_expires ON oauth_server_refresh_tokens (expires_at)`,
        `CREATE TABLE oauth_server_consents (user_id text NOT NULL, client_id text NOT NULL, scope text NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (user_id, client_id, scope))`,
      ],
    },
    clientsMigration,
    deviceMigration,
    {
      version: 4,
      name: 'when a grant was last usable, so spent grants are purged',
      statements: [
        // The later of the grant's start and its refresh tokens' expiry: kept by the two writes that set them.
        `ALTER TABLE oauth_server_grants ADD COLUMN last_use_by timestamptz`,
        `UPDATE oauth_server_grants g SET last_use_by = greatest(g.created_at, (SELECT max(r.expires_at) FROM oauth_server_refresh_tokens r WHERE r.grant_id = g.id))`,
        `ALTER TABLE oauth_server_grants ALTER COLUMN last_use_by SET NOT NULL`,
        `CREATE INDEX oauth_server_grants_last_use ON oauth_server_grants (last_use_by)`,
        `CREATE INDEX oauth_server_grants_revoked ON oauth_server_grants (revoked_at) WHERE revoked_at IS NOT NULL`,
      ],
    },
  ],
  sql: (db) => ({
    ...clientsSql(db),
    ...deviceSql(db),
    ...userGrantsSql(db),
    async listOAuthKeys() {
      const { rows } = await db.query('SELECT * FROM oauth_server_keys ORDER BY created_at DESC, kid DESC', [])
      return rows.map(keyRow)
    },
    async addOAuthKey(key) {
      await db.query('INSERT INTO oauth_server_keys (kid, alg, public_jwk, sealed_private, created_at) VALUES ($1, $2, $3::jsonb, $4, $5) ON CONFLICT (kid) DO NOTHING', [
        key.kid,
        key.alg,
        JSON.stringify(key.publicJwk),
        key.sealedPrivate,
        key.createdAt,
      ])
    },
    async deleteOAuthKeys(kids) {
      if (kids.length) await db.query('DELETE FROM oauth_server_keys WHERE kid = ANY($1::text[])', [kids])
    },
    async createOAuthRequest(r) {
      await db.query('INSERT INTO oauth_server_requests (id, client_id, params, expires_at) VALUES ($1, $2, $3::jsonb, $4)', [r.id, r.clientId, JSON.stringify(r.params), r.expires])
    },
    async getOAuthRequest(id) {
      const { rows } = await db.query('SELECT * FROM oauth_server_requests WHERE id = $1', [id])
      return rows[0] ? requestRow(rows[0]) : null
    },
    async useOAuthRequest(id) {
      const { rows } = await db.query('DELETE FROM oauth_server_requests WHERE id = $1 RETURNING *', [id])
      return rows[0] ? requestRow(rows[0]) : null
    },
    async createOAuthGrant(g) {
      await db.query(
        `INSERT INTO oauth_server_grants (id, client_id, user_id, scope, resource, code_hash, code_challenge, redirect_uri, auth_time, created_at, revoked_at, last_use_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10)`,
        [g.id, g.clientId, g.userId, g.scope, g.resource, g.codeHash, g.codeChallenge, g.redirectUri, g.authTime, g.createdAt, g.revokedAt],
      )
    },
    async getOAuthGrant(id) {
      const { rows } = await db.query('SELECT * FROM oauth_server_grants WHERE id = $1', [id])
      return rows[0] ? grantRow(rows[0]) : null
    },
    async revokeOAuthGrant(id, at) {
      await db.query('UPDATE oauth_server_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at])
    },
    async createOAuthRefreshToken(t) {
      await db.query(
        `WITH grant_use AS (UPDATE oauth_server_grants SET last_use_by = greatest(last_use_by, $3) WHERE id = $2)
         INSERT INTO oauth_server_refresh_tokens (token_hash, grant_id, expires_at) VALUES ($1, $2, $3)`,
        [t.tokenHash, t.grantId, t.expires],
      )
    },
    async useOAuthRefreshToken(tokenHash, at) {
      // One statement decides the winner: the row changes for one caller only.
      const { rows } = await db.query<{ grant_id: string; expires_at: unknown; won: boolean }>(
        `WITH spent AS (UPDATE oauth_server_refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING grant_id, expires_at)
         SELECT grant_id, expires_at, true AS won FROM spent
         UNION ALL SELECT grant_id, expires_at, false AS won FROM oauth_server_refresh_tokens WHERE token_hash = $1 AND NOT EXISTS (SELECT 1 FROM spent)`,
        [tokenHash, at],
      )
      const row = rows[0]
      if (!row) return { result: 'unknown' }
      return row.won ? { result: 'used', grantId: row.grant_id, expires: date(row.expires_at) } : { result: 'reused', grantId: row.grant_id }
    },
    async getOAuthRefreshToken(tokenHash) {
      const { rows } = await db.query<{ grant_id: string; expires_at: unknown; used_at: unknown }>('SELECT grant_id, expires_at, used_at FROM oauth_server_refresh_tokens WHERE token_hash = $1', [tokenHash])
      const row = rows[0]
      return row ? { grantId: row.grant_id, expires: date(row.expires_at), usedAt: row.used_at == null ? null : date(row.used_at) } : null
    },
    async listOAuthConsents(userId, clientId) {
      const { rows } = await db.query<{ scope: string }>('SELECT scope FROM oauth_server_consents WHERE user_id = $1 AND client_id = $2', [userId, clientId])
      return rows.map((r) => r.scope)
    },
    async saveOAuthConsent(c) {
      await db.query('INSERT INTO oauth_server_consents (user_id, client_id, scope, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [c.userId, c.clientId, c.scope, c.at])
    },
    async purgeOAuthRecords(now, unusedSince, limit) {
      await db.query('DELETE FROM oauth_server_requests WHERE id IN (SELECT id FROM oauth_server_requests WHERE expires_at < $1 LIMIT $2)', [now, limit])
      await db.query('DELETE FROM oauth_server_refresh_tokens WHERE token_hash IN (SELECT token_hash FROM oauth_server_refresh_tokens WHERE expires_at < $1 LIMIT $2)', [now, limit])
      await db.query('DELETE FROM oauth_server_grants WHERE id IN (SELECT id FROM oauth_server_grants WHERE last_use_by < $1 LIMIT $2)', [unusedSince, limit])
      await db.query('DELETE FROM oauth_server_grants WHERE id IN (SELECT id FROM oauth_server_grants WHERE revoked_at < $1 LIMIT $2)', [unusedSince, limit])
    },
  }),
  memory: () => {
    const keys = new Map<string, StoredKey>()
    const requests = new Map<string, StoredRequest>()
    const grants = new Map<string, Grant>()
    const refresh = new Map<string, { grantId: string; expires: Date; usedAt: Date | null }>()
    // By grant id: the later of its start and its refresh tokens' expiry (the SQL's last_use_by).
    const lastUseBy = new Map<string, Date>()
    const grantKeys = new Map<string, string>()
    // By [userId, clientId, scope] as JSON, to when it was given.
    const consents = new Map<string, Date>()
    const consentKey = (userId: string, clientId: string, scope: string) => JSON.stringify([userId, clientId, scope])
    return {
      ...clientsMemory(),
      ...deviceMemory(grantKeys),
      ...userGrantsMemory(grants, refresh, consents),
      listOAuthKeys: async () => [...keys.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? 1 : -1)).map(copy),
      async addOAuthKey(key) {
        if (!keys.has(key.kid)) keys.set(key.kid, copy(key))
      },
      async deleteOAuthKeys(kids) {
        for (const kid of kids) keys.delete(kid)
      },
      async createOAuthRequest(r) {
        if (requests.has(r.id)) throw new Error(`oauth request ${r.id} exists`)
        requests.set(r.id, copy(r))
      },
      getOAuthRequest: async (id) => (requests.has(id) ? copy(requests.get(id)!) : null),
      async useOAuthRequest(id) {
        const found = requests.get(id)
        requests.delete(id)
        return found ?? null
      },
      async createOAuthGrant(g) {
        if (grants.has(g.id)) throw new Error(`oauth grant ${g.id} exists`)
        grants.set(g.id, copy(g))
        lastUseBy.set(g.id, new Date(g.createdAt))
      },
      getOAuthGrant: async (id) => (grants.has(id) ? copy(grants.get(id)!) : null),
      async revokeOAuthGrant(id, at) {
        const grant = grants.get(id)
        if (grant && !grant.revokedAt) grant.revokedAt = new Date(at)
      },
      async createOAuthRefreshToken(t) {
        if (!grants.has(t.grantId)) throw new Error(`no oauth grant ${t.grantId}`)
        refresh.set(t.tokenHash, { grantId: t.grantId, expires: new Date(t.expires), usedAt: null })
        if (t.expires > lastUseBy.get(t.grantId)!) lastUseBy.set(t.grantId, new Date(t.expires))
      },
      async useOAuthRefreshToken(tokenHash, at) {
        const found = refresh.get(tokenHash)
        if (!found) return { result: 'unknown' }
        if (found.usedAt) return { result: 'reused', grantId: found.grantId }
        found.usedAt = new Date(at)
        return { result: 'used', grantId: found.grantId, expires: new Date(found.expires) }
      },
      getOAuthRefreshToken: async (tokenHash) => (refresh.has(tokenHash) ? copy(refresh.get(tokenHash)!) : null),
      listOAuthConsents: async (userId, clientId) =>
        [...consents.keys()].map((k) => JSON.parse(k) as [string, string, string]).filter(([u, c]) => u === userId && c === clientId).map(([, , scope]) => scope),
      async saveOAuthConsent(c) {
        const key = consentKey(c.userId, c.clientId, c.scope)
        if (!consents.has(key)) consents.set(key, new Date(c.at))
      },
      async purgeOAuthRecords(now, unusedSince, limit) {
        let left = limit
        for (const [id, r] of requests) if (left > 0 && r.expires < now) requests.delete(id), left--
        left = limit
        for (const [hash, t] of refresh) if (left > 0 && t.expires < now) refresh.delete(hash), left--
        const drop = (id: string) => {
          grants.delete(id)
          lastUseBy.delete(id)
          // As the SQL's ON DELETE CASCADE.
          for (const [hash, t] of refresh) if (t.grantId === id) refresh.delete(hash)
          grantKeys.delete(id)
        }
        left = limit
        for (const [id, at] of lastUseBy) if (left > 0 && at < unusedSince) drop(id), left--
        left = limit
        for (const [id, g] of grants) if (left > 0 && g.revokedAt && g.revokedAt < unusedSince) drop(id), left--
      },
    }
  },
  tests: {
    ...clientsTests,
    ...deviceTests,
    ...userGrantsTests,
    'a refresh token is spent once; a second use reads as reused, with its grant': async (store) => {
      const grantId = `grant-${crypto.randomUUID()}`
      await store.createOAuthGrant({ id: grantId, clientId: 'c', userId: 'u', scope: 'a b', resource: 'https://r.example', codeHash: 'h', codeChallenge: 'c', redirectUri: 'https://c.example/cb', authTime: null, createdAt: new Date(), revokedAt: null })
      const tokenHash = `rt-${crypto.randomUUID()}`
      await store.createOAuthRefreshToken({ tokenHash, grantId, expires: new Date(Date.now() + 60_000) })
      const uses = await Promise.all([store.useOAuthRefreshToken(tokenHash, new Date()), store.useOAuthRefreshToken(tokenHash, new Date())])
      const won = uses.filter((u) => u.result === 'used')
      if (won.length !== 1 || uses.some((u) => u.result === 'unknown' || u.grantId !== grantId)) throw new Error(`expected one use and one reuse of grant ${grantId}, got ${JSON.stringify(uses)}`)
      if ((await store.useOAuthRefreshToken(`rt-${crypto.randomUUID()}`, new Date())).result !== 'unknown') throw new Error('expected an unknown token to read as unknown')
      if (!(await store.getOAuthRefreshToken(tokenHash))?.usedAt) throw new Error('expected the token to be marked used')
    },
    'a grant is revoked once, its first instant kept': async (store) => {
      const id = `grant-${crypto.randomUUID()}`
      await store.createOAuthGrant({ id, clientId: 'c', userId: null, scope: '', resource: 'https://r.example', codeHash: null, codeChallenge: null, redirectUri: null, authTime: null, createdAt: new Date(1000), revokedAt: null })
      await store.revokeOAuthGrant(id, new Date(2000))
      await store.revokeOAuthGrant(id, new Date(3000))
      const grant = await store.getOAuthGrant(id)
      if (grant?.revokedAt?.getTime() !== 2000 || grant.createdAt.getTime() !== 1000 || grant.userId !== null) throw new Error(`expected revokedAt 2000, got ${JSON.stringify(grant)}`)
    },
    'the purge deletes expired requests and refresh tokens, and grants nothing can use since the instant given; never a live one': async (store) => {
      // Long before any other case's rows (1970 on), so the purge's batch holds only this case's.
      const t0 = Date.UTC(1930, 0, 1)
      const at = (minutes: number) => new Date(t0 + minutes * 60_000)
      const tag = crypto.randomUUID()
      const grant = async (name: string, created: number, revoked?: number) => {
        const id = `${name}-${tag}`
        await store.createOAuthGrant({ id, clientId: 'c', userId: 'u', scope: 'a', resource: 'https://r.example', codeHash: null, codeChallenge: null, redirectUri: null, authTime: null, createdAt: at(created), revokedAt: null })
        if (revoked !== undefined) await store.revokeOAuthGrant(id, at(revoked))
        return id
      }
      const codeOnly = await grant('code-only', 0)
      const fresh = await grant('fresh', 8)
      const revoked = await grant('revoked', 0, 1)
      const justRevoked = await grant('just-revoked', 0, 6)
      const refreshed = await grant('refreshed', 0)
      const spent = await grant('spent', 0)
      await store.createOAuthRefreshToken({ tokenHash: `live-${tag}`, grantId: refreshed, expires: at(60) })
      await store.createOAuthRefreshToken({ tokenHash: `old-${tag}`, grantId: refreshed, expires: at(1) })
      await store.createOAuthRefreshToken({ tokenHash: `spent-${tag}`, grantId: spent, expires: at(2) })
      await store.createOAuthRefreshToken({ tokenHash: `revoked-${tag}`, grantId: revoked, expires: at(60) })
      await store.createOAuthRefreshToken({ tokenHash: `just-revoked-${tag}`, grantId: justRevoked, expires: at(60) })
      await store.bindOAuthGrantKey(spent, 'jkt')
      await store.createOAuthRequest({ id: `gone-${tag}`, clientId: 'c', params: {}, expires: at(9) })
      await store.createOAuthRequest({ id: `kept-${tag}`, clientId: 'c', params: {}, expires: at(11) })
      // At minute 10, nothing of a grant last usable, or revoked, before minute 5 works any more.
      await store.purgeOAuthRecords(at(10), at(5), 100)
      const left = async (ids: string[]) => (await Promise.all(ids.map(async (id) => ((await store.getOAuthGrant(id)) ? id.replace(`-${tag}`, '') : null)))).filter(Boolean)
      const grants = await left([codeOnly, fresh, revoked, justRevoked, refreshed, spent])
      if (grants.join() !== 'fresh,just-revoked,refreshed') throw new Error(`expected the fresh, just revoked and refreshed grants kept, got ${grants.join()}`)
      const tokens = await Promise.all(['live', 'old', 'spent', 'revoked'].map(async (name) => ((await store.getOAuthRefreshToken(`${name}-${tag}`)) ? name : null)))
      if (tokens.filter(Boolean).join() !== 'live') throw new Error(`expected only the live refresh token kept, got ${tokens.join()}`)
      if ((await store.getOAuthGrantKey(spent)) !== null) throw new Error("expected a purged grant's key gone with it")
      if ((await store.getOAuthRequest(`gone-${tag}`)) || !(await store.getOAuthRequest(`kept-${tag}`))) throw new Error('expected the expired request gone, the live one kept')
      // A refresh token made later keeps its grant: until its expiry has passed by the margin.
      await store.purgeOAuthRecords(at(64), at(59), 100)
      if (!(await store.getOAuthGrant(refreshed))) throw new Error('expected a grant whose refresh token expires at minute 60 kept at minute 64')
      await store.purgeOAuthRecords(at(66), at(61), 100)
      if ((await store.getOAuthGrant(refreshed)) || (await store.getOAuthGrant(justRevoked)) || (await store.getOAuthGrant(fresh))) throw new Error('expected every grant of the case gone at minute 66')
    },
    'a pending request is used by one caller only': async (store) => {
      const id = crypto.randomUUID()
      await store.createOAuthRequest({ id, clientId: 'c', params: { scope: 'a', state: 'x' }, expires: new Date(Date.now() + 60_000) })
      if ((await store.getOAuthRequest(id))?.params.state !== 'x') throw new Error('expected the request to be read back')
      const used = await Promise.all([store.useOAuthRequest(id), store.useOAuthRequest(id)])
      if (used.filter(Boolean).length !== 1) throw new Error('expected one caller to use the request')
      if (await store.getOAuthRequest(id)) throw new Error('expected a used request to be gone')
    },
    'keys are listed newest first; consents by user and client': async (store) => {
      const tag = crypto.randomUUID()
      const jwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }
      await store.addOAuthKey({ kid: `old-${tag}`, alg: 'ES256', publicJwk: jwk, sealedPrivate: 's', createdAt: new Date(Date.now() - 1000) })
      await store.addOAuthKey({ kid: `new-${tag}`, alg: 'ES256', publicJwk: jwk, sealedPrivate: 's', createdAt: new Date() })
      const mine = (await store.listOAuthKeys()).filter((k) => k.kid.endsWith(tag))
      if (mine.map((k) => k.kid).join() !== `new-${tag},old-${tag}` || mine[0]!.publicJwk.crv !== 'P-256') throw new Error(`expected newest first, got ${JSON.stringify(mine)}`)
      await store.deleteOAuthKeys([`old-${tag}`, `new-${tag}`])
      if ((await store.listOAuthKeys()).some((k) => k.kid.endsWith(tag))) throw new Error('expected the keys deleted')
      await store.saveOAuthConsent({ userId: tag, clientId: 'c', scope: 'a b', at: new Date() })
      await store.saveOAuthConsent({ userId: tag, clientId: 'c', scope: 'a b', at: new Date() })
      if ((await store.listOAuthConsents(tag, 'c')).join('|') !== 'a b' || (await store.listOAuthConsents(tag, 'd')).length) throw new Error('expected one consent for the client only')
    },
  },
}
