/**
 * What the device grant (RFC 8628) and DPoP (RFC 9449) keep, joined to the plugin's schema
 * (store.ts): device authorizations (the device code as its SHA-256, the user code, the poll
 * interval and last poll, so "too fast" is one answer on every server), DPoP proofs' `jti`s seen
 * (a replay is refused wherever it lands), and the key a public client's grant is bound to.
 * Every decision is one statement: a row lock or a primary key picks the one winner.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'

export type DeviceStatus = 'pending' | 'allowed' | 'denied' | 'used'

export interface DeviceAuthorization {
  /** SHA-256 of the device code, hex. */
  deviceHash: string
  /** Normalised: 8 letters of the user-code alphabet, no dash. */
  userCode: string
  clientId: string
  scope: string
  resource: string
  /** Seconds the client must wait between polls; raised by 5 at each poll that came too soon. */
  interval: number
  expires: Date
  lastPollAt: Date | null
  status: DeviceStatus
  userId: string | null
  authTime: Date | null
}

export interface DevicePoll {
  device: DeviceAuthorization
  /** This poll came before the interval since the last one had passed (and raised the interval). */
  tooFast: boolean
}

export interface DeviceStore {
  /** False when the user code is taken (the caller makes another). */
  createOAuthDevice(device: DeviceAuthorization): Promise<boolean>
  getOAuthDeviceByUserCode(userCode: string): Promise<DeviceAuthorization | null>
  /** Allows or denies a pending authorization; false when it was not pending (answered already). */
  decideOAuthDevice(userCode: string, decision: { status: 'allowed' | 'denied'; userId: string; authTime: Date | null }): Promise<boolean>
  /** Records a poll at `at`; answers the authorization after it, or null for an unknown device code. */
  pollOAuthDevice(deviceHash: string, at: Date): Promise<DevicePoll | null>
  /** Allowed → used, for one caller only. */
  spendOAuthDevice(deviceHash: string): Promise<DeviceAuthorization | null>
  /** Records a DPoP proof's key+jti until `expires`; false when it was seen already (a replay). */
  useOAuthDpopProof(proofHash: string, expires: Date): Promise<boolean>
  /** Binds a grant (its refresh tokens) to a DPoP key's thumbprint; the first binding stays. */
  bindOAuthGrantKey(grantId: string, jkt: string): Promise<void>
  getOAuthGrantKey(grantId: string): Promise<string | null>
  /** Deletes at most `limit` device authorizations and proofs that expired before `before`. */
  purgeOAuthDeviceRecords(before: Date, limit: number): Promise<void>
}

export const deviceMigration: PluginMigration = {
  version: 3,
  name: 'device authorizations, DPoP proofs, grant keys',
  statements: [
    `CREATE TABLE oauth_server_devices (device_hash text PRIMARY KEY, user_code text NOT NULL UNIQUE, client_id text NOT NULL, scope text NOT NULL, resource text NOT NULL,
       poll_interval integer NOT NULL, expires_at timestamptz NOT NULL, last_poll_at timestamptz, status text NOT NULL, user_id text, auth_time timestamptz)`,
    `CREATE INDEX oauth_server_devices_expires ON oauth_server_devices (expires_at)`,
    `CREATE TABLE oauth_server_dpop_proofs (proof_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)`,
    `CREATE INDEX oauth_server_dpop_proofs_expires ON oauth_server_dpop_proofs (expires_at)`,
    `CREATE TABLE oauth_server_grant_keys (grant_id text PRIMARY KEY REFERENCES oauth_server_grants (id) ON DELETE CASCADE, jkt text NOT NULL)`,
  ],
}

const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string))
const deviceRow = (r: Record<string, unknown>): DeviceAuthorization => ({
  deviceHash: r.device_hash as string,
  userCode: r.user_code as string,
  clientId: r.client_id as string,
  scope: r.scope as string,
  resource: r.resource as string,
  interval: Number(r.poll_interval),
  expires: date(r.expires_at),
  lastPollAt: r.last_poll_at == null ? null : date(r.last_poll_at),
  status: r.status as DeviceStatus,
  userId: (r.user_id as string | null) ?? null,
  authTime: r.auth_time == null ? null : date(r.auth_time),
})

export function deviceSql(db: SchemaQueryable): DeviceStore {
  return {
    async createOAuthDevice(d) {
      const { rows } = await db.query(
        `INSERT INTO oauth_server_devices (device_hash, user_code, client_id, scope, resource, poll_interval, expires_at, last_poll_at, status, user_id, auth_time)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING device_hash`,
        [d.deviceHash, d.userCode, d.clientId, d.scope, d.resource, d.interval, d.expires, d.lastPollAt, d.status, d.userId, d.authTime],
      )
      return rows.length === 1
    },
    async getOAuthDeviceByUserCode(userCode) {
      const { rows } = await db.query('SELECT * FROM oauth_server_devices WHERE user_code = $1', [userCode])
      return rows[0] ? deviceRow(rows[0]) : null
    },
    async decideOAuthDevice(userCode, d) {
      const { rows } = await db.query(`UPDATE oauth_server_devices SET status = $2, user_id = $3, auth_time = $4 WHERE user_code = $1 AND status = 'pending' RETURNING device_hash`, [
        userCode,
        d.status,
        d.userId,
        d.authTime,
      ])
      return rows.length === 1
    },
    async pollOAuthDevice(deviceHash, at) {
      // The row lock orders two polls at once: the second sees the first's time and is too fast.
      const { rows } = await db.query<Record<string, unknown> & { was: number }>(
        `UPDATE oauth_server_devices d SET last_poll_at = $2,
           poll_interval = CASE WHEN old.last_poll_at IS NOT NULL AND old.last_poll_at + old.poll_interval * interval '1 second' > $2 THEN old.poll_interval + 5 ELSE old.poll_interval END
         FROM (SELECT device_hash, last_poll_at, poll_interval FROM oauth_server_devices WHERE device_hash = $1 FOR UPDATE) old
         WHERE d.device_hash = old.device_hash RETURNING d.*, old.poll_interval AS was`,
        [deviceHash, at],
      )
      const row = rows[0]
      if (!row) return null
      const device = deviceRow(row)
      return { device, tooFast: device.interval > Number(row.was) }
    },
    async spendOAuthDevice(deviceHash) {
      const { rows } = await db.query(`UPDATE oauth_server_devices SET status = 'used' WHERE device_hash = $1 AND status = 'allowed' RETURNING *`, [deviceHash])
      return rows[0] ? deviceRow(rows[0]) : null
    },
    async useOAuthDpopProof(proofHash, expires) {
      const { rows } = await db.query('INSERT INTO oauth_server_dpop_proofs (proof_hash, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING proof_hash', [proofHash, expires])
      return rows.length === 1
    },
    async bindOAuthGrantKey(grantId, jkt) {
      await db.query('INSERT INTO oauth_server_grant_keys (grant_id, jkt) VALUES ($1, $2) ON CONFLICT DO NOTHING', [grantId, jkt])
    },
    async getOAuthGrantKey(grantId) {
      const { rows } = await db.query<{ jkt: string }>('SELECT jkt FROM oauth_server_grant_keys WHERE grant_id = $1', [grantId])
      return rows[0]?.jkt ?? null
    },
    async purgeOAuthDeviceRecords(before, limit) {
      await db.query('DELETE FROM oauth_server_devices WHERE device_hash IN (SELECT device_hash FROM oauth_server_devices WHERE expires_at < $1 LIMIT $2)', [before, limit])
      await db.query('DELETE FROM oauth_server_dpop_proofs WHERE proof_hash IN (SELECT proof_hash FROM oauth_server_dpop_proofs WHERE expires_at < $1 LIMIT $2)', [before, limit])
    },
  }
}

/** `grantKeys` by grant id: shared with the grants' store, which drops a purged grant's key (as the SQL's cascade). */
export function deviceMemory(grantKeys = new Map<string, string>()): DeviceStore {
  const devices = new Map<string, DeviceAuthorization>()
  const proofs = new Map<string, Date>()
  const byUserCode = (userCode: string) => [...devices.values()].find((d) => d.userCode === userCode)
  return {
    async createOAuthDevice(d) {
      if (devices.has(d.deviceHash) || byUserCode(d.userCode)) return false
      devices.set(d.deviceHash, structuredClone(d))
      return true
    },
    getOAuthDeviceByUserCode: async (userCode) => {
      const found = byUserCode(userCode)
      return found ? structuredClone(found) : null
    },
    async decideOAuthDevice(userCode, d) {
      const found = byUserCode(userCode)
      if (!found || found.status !== 'pending') return false
      Object.assign(found, { status: d.status, userId: d.userId, authTime: d.authTime })
      return true
    },
    async pollOAuthDevice(deviceHash, at) {
      const found = devices.get(deviceHash)
      if (!found) return null
      const tooFast = found.lastPollAt !== null && found.lastPollAt.getTime() + found.interval * 1000 > at.getTime()
      found.lastPollAt = new Date(at)
      if (tooFast) found.interval += 5
      return { device: structuredClone(found), tooFast }
    },
    async spendOAuthDevice(deviceHash) {
      const found = devices.get(deviceHash)
      if (!found || found.status !== 'allowed') return null
      found.status = 'used'
      return structuredClone(found)
    },
    async useOAuthDpopProof(proofHash, expires) {
      if (proofs.has(proofHash)) return false
      proofs.set(proofHash, new Date(expires))
      return true
    },
    async bindOAuthGrantKey(grantId, jkt) {
      if (!grantKeys.has(grantId)) grantKeys.set(grantId, jkt)
    },
    getOAuthGrantKey: async (grantId) => grantKeys.get(grantId) ?? null,
    async purgeOAuthDeviceRecords(before, limit) {
      let left = limit
      for (const [hash, d] of devices) if (left > 0 && d.expires < before) devices.delete(hash), left--
      left = limit
      for (const [hash, expires] of proofs) if (left > 0 && expires < before) proofs.delete(hash), left--
    },
  }
}

const sample = (tag: string, userCode: string): DeviceAuthorization => ({
  deviceHash: `dev-${tag}`,
  userCode,
  clientId: 'c',
  scope: 'a',
  resource: 'https://r.example',
  interval: 5,
  expires: new Date(Date.now() + 600_000),
  lastPollAt: null,
  status: 'pending',
  userId: null,
  authTime: null,
})

/** The cases `latchkey/adapter-test` runs on each adapter (joined to store.ts's). */
export const deviceTests: Record<string, (store: DeviceStore & { createOAuthGrant?: unknown }) => Promise<void>> = {
  'a device authorization is answered once, polls too soon raise its interval, and it is spent once': async (store) => {
    const tag = crypto.randomUUID()
    const code = tag.replace(/[^a-z]/g, '').slice(0, 8).toUpperCase().padEnd(8, 'B')
    if (!(await store.createOAuthDevice(sample(tag, code)))) throw new Error('expected the device authorization to be created')
    if (await store.createOAuthDevice(sample(`${tag}-2`, code))) throw new Error('expected a taken user code to be refused')
    const t = Date.now()
    const first = await store.pollOAuthDevice(`dev-${tag}`, new Date(t))
    const soon = await store.pollOAuthDevice(`dev-${tag}`, new Date(t + 1000))
    const later = await store.pollOAuthDevice(`dev-${tag}`, new Date(t + 12_000))
    if (first?.tooFast !== false || soon?.tooFast !== true || soon.device.interval !== 10 || later?.tooFast !== false || later.device.interval !== 10) {
      throw new Error(`expected one poll too soon, the interval 10, got ${JSON.stringify([first, soon, later])}`)
    }
    const decisions = await Promise.all([
      store.decideOAuthDevice(code, { status: 'allowed', userId: 'u', authTime: null }),
      store.decideOAuthDevice(code, { status: 'denied', userId: 'v', authTime: null }),
    ])
    if (decisions.filter(Boolean).length !== 1) throw new Error('expected one decision to win')
    const status = (await store.getOAuthDeviceByUserCode(code))?.status
    const spent = await Promise.all([store.spendOAuthDevice(`dev-${tag}`), store.spendOAuthDevice(`dev-${tag}`)])
    if (spent.filter(Boolean).length !== (status === 'allowed' ? 1 : 0)) throw new Error(`expected one spend of an allowed device, got ${JSON.stringify(spent)}`)
    if ((await store.pollOAuthDevice(`dev-${crypto.randomUUID()}`, new Date())) !== null) throw new Error('expected an unknown device code to read as null')
  },
  'a DPoP proof is used once': async (store) => {
    const hash = `proof-${crypto.randomUUID()}`
    const uses = await Promise.all([store.useOAuthDpopProof(hash, new Date(Date.now() + 60_000)), store.useOAuthDpopProof(hash, new Date(Date.now() + 60_000))])
    if (uses.filter(Boolean).length !== 1) throw new Error(`expected one use of the proof, got ${JSON.stringify(uses)}`)
  },
}
