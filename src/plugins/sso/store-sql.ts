/**
 * The sso store in PostgreSQL. The settings are one JSON column (what the routes read and write as
 * a whole); the domains a column of their own, so home-realm discovery is one indexed lookup.
 * `sso_once` keeps what must be used once across servers: assertion ids, hand-offs.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { ConnectionRecord, SsoStore } from './records.js'

export const migrations: PluginMigration[] = [
  {
    version: 1,
    name: 'sso connections and the once-only keys',
    statements: [
      `CREATE TABLE sso_connections (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        kind text NOT NULL,
        name text NOT NULL,
        domains text[] NOT NULL,
        settings jsonb NOT NULL,
        sealed_secret text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      'CREATE INDEX sso_connections_organization_id ON sso_connections (organization_id)',
      'CREATE INDEX sso_connections_domains ON sso_connections USING gin (domains)',
      `CREATE TABLE sso_once (
        key text PRIMARY KEY,
        expires timestamptz NOT NULL
      )`,
      'CREATE INDEX sso_once_expires ON sso_once (expires)',
    ],
  },
]

type Row = Record<string, unknown>
const COLUMNS = 'id, organization_id, kind, name, domains, settings, sealed_secret, created_at, updated_at'
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string))
const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Settings

type Settings = Pick<ConnectionRecord, 'required' | 'defaultRole' | 'groupRoles' | 'attributes' | 'oidc' | 'saml'>

function settingsOf(c: Settings): string {
  const { required, defaultRole, groupRoles, attributes, oidc, saml } = c
  return JSON.stringify({ required, defaultRole, groupRoles, attributes, oidc, saml })
}

function toConnection(row: Row): ConnectionRecord {
  const s = parsed(row.settings)
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    kind: row.kind as ConnectionRecord['kind'],
    name: String(row.name),
    domains: (row.domains as string[]) ?? [],
    required: s.required === true,
    defaultRole: s.defaultRole,
    groupRoles: s.groupRoles ?? {},
    attributes: s.attributes,
    oidc: s.oidc ?? null,
    saml: s.saml ?? null,
    sealedSecret: (row.sealed_secret as string | null) ?? null,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  }
}

export function sqlStore(db: SchemaQueryable): SsoStore {
  const rows = async (sql: string, params: unknown[]) => (await db.query<Row>(sql, params)).rows
  return {
    async createSsoConnection(c) {
      const [row] = await rows(
        `INSERT INTO sso_connections (${COLUMNS}) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text[], $6::jsonb, $7::text, $8::timestamptz, $9::timestamptz) RETURNING ${COLUMNS}`,
        [c.id, c.organizationId, c.kind, c.name, c.domains, settingsOf(c), c.sealedSecret, c.createdAt, c.updatedAt],
      )
      return toConnection(row!)
    },
    async getSsoConnection(id) {
      const [row] = await rows(`SELECT ${COLUMNS} FROM sso_connections WHERE id = $1::text`, [id])
      return row ? toConnection(row) : null
    },
    async listSsoConnections(organizationId) {
      return (await rows(`SELECT ${COLUMNS} FROM sso_connections WHERE organization_id = $1::text ORDER BY created_at, id`, [organizationId])).map(toConnection)
    },
    async updateSsoConnection(organizationId, id, changes) {
      const [held] = await rows(`SELECT ${COLUMNS} FROM sso_connections WHERE id = $1::text AND organization_id = $2::text`, [id, organizationId])
      if (!held) return null
      const next = { ...toConnection(held), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as ConnectionRecord
      const [row] = await rows(
        `UPDATE sso_connections SET name = $3::text, domains = $4::text[], settings = $5::jsonb, sealed_secret = $6::text, updated_at = $7::timestamptz
         WHERE id = $1::text AND organization_id = $2::text RETURNING ${COLUMNS}`,
        [id, organizationId, next.name, next.domains, settingsOf(next), next.sealedSecret, next.updatedAt],
      )
      return row ? toConnection(row) : null
    },
    async deleteSsoConnection(organizationId, id) {
      return (await rows('DELETE FROM sso_connections WHERE id = $1::text AND organization_id = $2::text RETURNING id', [id, organizationId])).length > 0
    },
    async listSsoConnectionsForDomain(domain) {
      return (await rows(`SELECT ${COLUMNS} FROM sso_connections WHERE domains @> ARRAY[$1::text] ORDER BY created_at, id`, [domain])).map(toConnection)
    },
    async useSsoOnce(key, expires, now) {
      await rows('DELETE FROM sso_once WHERE expires <= $1::timestamptz', [now])
      const taken = await rows('INSERT INTO sso_once (key, expires) VALUES ($1::text, $2::timestamptz) ON CONFLICT (key) DO NOTHING RETURNING key', [key, expires])
      return taken.length > 0
    },
  }
}
