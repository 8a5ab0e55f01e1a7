/**
 * Verified domains in PostgreSQL (plugin migration 2). A domain may be claimed (pending) by any
 * number of organizations but verified by one: a partial unique index says so to every server at
 * once, so of two organizations verifying the same domain one wins and the other is told 'taken'.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { DomainRecord, DomainStore, MemberRecord } from './records.js'

export const domainsMigration: PluginMigration = {
  version: 2,
  name: 'verified domains of organizations',
  statements: [
    `CREATE TABLE organization_domains (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      domain text NOT NULL,
      role text NOT NULL,
      auto_join boolean NOT NULL DEFAULT false,
      challenge_hash text,
      verified_at timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (organization_id, domain)
    )`,
    'CREATE UNIQUE INDEX organization_domains_verified ON organization_domains (domain) WHERE verified_at IS NOT NULL',
  ],
}

type Row = Record<string, unknown>
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string))
const DOMAIN = 'id, organization_id, domain, role, auto_join, verified_at, created_at'

const toDomain = (r: Row): DomainRecord => ({
  id: String(r.id),
  organizationId: String(r.organization_id),
  domain: String(r.domain),
  role: String(r.role),
  autoJoin: r.auto_join === true || r.auto_join === 't',
  verifiedAt: r.verified_at == null ? null : date(r.verified_at),
  createdAt: date(r.created_at),
})

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505'

export function sqlDomainStore(db: SchemaQueryable): DomainStore {
  const rows = async (sql: string, params: unknown[]) => (await db.query<Row>(sql, params)).rows
  return {
    async addDomain(d) {
      // A pending claim of the organization's gets the new challenge; a verified one is left as it is.
      const [row] = await rows(
        `INSERT INTO organization_domains AS d (id, organization_id, domain, role, auto_join, challenge_hash, verified_at, created_at)
         VALUES ($1::text, $2::text, $3::text, $4::text, $5::boolean, $6::text, NULL, $7::timestamptz)
         ON CONFLICT (organization_id, domain) DO UPDATE SET challenge_hash = CASE WHEN d.verified_at IS NULL THEN EXCLUDED.challenge_hash ELSE d.challenge_hash END
         RETURNING ${DOMAIN}`,
        [d.id, d.organizationId, d.domain, d.role, d.autoJoin, d.challengeHash, d.createdAt],
      )
      return toDomain(row!)
    },
    async listDomains(organizationId) {
      return (await rows(`SELECT ${DOMAIN} FROM organization_domains WHERE organization_id = $1::text ORDER BY domain`, [organizationId])).map(toDomain)
    },
    async getDomain(organizationId, domainId) {
      const [row] = await rows(`SELECT ${DOMAIN}, challenge_hash FROM organization_domains WHERE organization_id = $1::text AND id = $2::text`, [organizationId, domainId])
      return row ? { ...toDomain(row), challengeHash: row.challenge_hash == null ? null : String(row.challenge_hash) } : null
    },
    async verifyDomain(organizationId, domainId, now) {
      try {
        const [row] = await rows(
          `UPDATE organization_domains SET verified_at = COALESCE(verified_at, $3::timestamptz), challenge_hash = NULL
           WHERE organization_id = $1::text AND id = $2::text RETURNING ${DOMAIN}`,
          [organizationId, domainId, now],
        )
        return row ? toDomain(row) : null
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken'
        throw error
      }
    },
    async updateDomain(organizationId, domainId, changes) {
      const [row] = await rows(
        `UPDATE organization_domains SET role = COALESCE($3::text, role), auto_join = COALESCE($4::boolean, auto_join)
         WHERE organization_id = $1::text AND id = $2::text RETURNING ${DOMAIN}`,
        [organizationId, domainId, changes.role ?? null, changes.autoJoin ?? null],
      )
      return row ? toDomain(row) : null
    },
    async removeDomain(organizationId, domainId) {
      const [row] = await rows(`DELETE FROM organization_domains WHERE organization_id = $1::text AND id = $2::text RETURNING ${DOMAIN}`, [organizationId, domainId])
      return row ? toDomain(row) : null
    },
    async verifiedDomain(domain) {
      const [row] = await rows(
        `SELECT d.id, d.organization_id, d.domain, d.role, d.auto_join, d.verified_at, d.created_at,
           o.name AS o_name, o.slug AS o_slug, o.logo AS o_logo, o.created_at AS o_created_at
         FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
         WHERE d.domain = $1::text AND d.verified_at IS NOT NULL`,
        [domain],
      )
      if (!row) return null
      const found = toDomain(row)
      return { ...found, organization: { id: found.organizationId, name: String(row.o_name), slug: String(row.o_slug), logo: row.o_logo == null ? null : String(row.o_logo), createdAt: date(row.o_created_at) } }
    },
    async joinByDomain({ organizationId, domain, userId, memberId, now }) {
      const [row] = await rows(
        `INSERT INTO organization_members (id, organization_id, user_id, role, joined_at)
         SELECT $3::text, d.organization_id, $4::text, d.role, $5::timestamptz FROM organization_domains d
         WHERE d.organization_id = $1::text AND d.domain = $2::text AND d.verified_at IS NOT NULL
         ON CONFLICT (organization_id, user_id) DO NOTHING
         RETURNING id, organization_id, user_id, role, joined_at`,
        [organizationId, domain, memberId, userId, now],
      )
      return row ? ({ id: String(row.id), organizationId: String(row.organization_id), userId: String(row.user_id), role: String(row.role), joinedAt: date(row.joined_at) } satisfies MemberRecord) : null
    },
  }
}
