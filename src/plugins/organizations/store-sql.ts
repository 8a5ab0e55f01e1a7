/**
 * The organizations store in PostgreSQL (any engine that speaks it: PGlite, a server, a
 * distributed one). Each method is one statement, so several servers on one database agree: a
 * spent invitation has one winner (a DELETE ... RETURNING), and the last owner is kept by a
 * statement that locks the other owners' rows before it counts them.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { InvitationRecord, MemberRecord, OrganizationRecord, OrganizationStore } from './records.js'
import { domainsMigration } from './store-sql-domains.js'
import { lastActiveMigration } from './store-sql-last-active.js'

export const migrations: PluginMigration[] = [
  {
    version: 1,
    name: 'organizations, members, invitations, active organization of a session',
    statements: [
      `CREATE TABLE organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        slug text NOT NULL UNIQUE,
        logo text,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE organization_members (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL,
        joined_at timestamptz NOT NULL,
        UNIQUE (organization_id, user_id)
      )`,
      'CREATE INDEX organization_members_user_id ON organization_members (user_id)',
      `CREATE TABLE organization_invitations (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        invited_by text REFERENCES users (id) ON DELETE SET NULL,
        expires timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (organization_id, email)
      )`,
      // Keyed by the stored session token: the session's end, or the membership's, ends the row.
      `CREATE TABLE organization_active_sessions (
        session_token text PRIMARY KEY REFERENCES sessions (session_token) ON DELETE CASCADE ON UPDATE CASCADE,
        member_id text NOT NULL REFERENCES organization_members (id) ON DELETE CASCADE
      )`,
      'CREATE INDEX organization_active_sessions_member_id ON organization_active_sessions (member_id)',
    ],
  },
  domainsMigration,
  lastActiveMigration,
]

/** The active organization, read in getSessionAndUser's own query (PluginSchema.sessionRead): `s` the session, `u` its user. */
export const sessionReadSql = `SELECT json_build_object('id', o.id, 'slug', o.slug, 'role', m.role)
  FROM organization_active_sessions a
  JOIN organization_members m ON m.id = a.member_id AND m.user_id = s.user_id
  JOIN organizations o ON o.id = m.organization_id
  WHERE a.session_token = s.session_token`

type Row = Record<string, unknown>
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string))
const str = (v: unknown) => (v == null ? null : String(v))

const toOrganization = (r: Row): OrganizationRecord => ({ id: String(r.id), name: String(r.name), slug: String(r.slug), logo: str(r.logo), createdAt: date(r.created_at) })
const toMember = (r: Row): MemberRecord => ({ id: String(r.id), organizationId: String(r.organization_id), userId: String(r.user_id), role: String(r.role), joinedAt: date(r.joined_at) })
const toInvitation = (r: Row): InvitationRecord => ({
  id: String(r.id),
  organizationId: String(r.organization_id),
  email: String(r.email),
  role: String(r.role),
  invitedBy: str(r.invited_by),
  expires: date(r.expires),
  createdAt: date(r.created_at),
})

const ORG = 'id, name, slug, logo, created_at'
const MEMBER = 'id, organization_id, user_id, role, joined_at'
const INVITATION = 'id, organization_id, email, role, invited_by, expires, created_at'

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505'
const isDeadlock = (error: unknown) => (error as { code?: string })?.code === '40P01'

/**
 * True while the other owners' rows (locked, so two owners stepping down at once wait for each
 * other) hold one owner besides `$2`. Two such statements may deadlock: the database ends one, retried.
 */
const anotherOwner = `EXISTS (SELECT 1 FROM organization_members o WHERE o.organization_id = $1::text AND o.role = 'owner' AND o.user_id <> $2::text FOR UPDATE)`

export function sqlStore(db: SchemaQueryable): OrganizationStore {
  const rows = async (sql: string, params: unknown[]) => (await db.query<Row>(sql, params)).rows
  const once = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (!isDeadlock(error)) throw error
      return run()
    }
  }
  /** 'missing' or 'last-owner', for a change that touched no row. */
  const whyNot = async (organizationId: string, userId: string) =>
    (await rows(`SELECT 1 FROM organization_members WHERE organization_id = $1::text AND user_id = $2::text`, [organizationId, userId])).length ? 'last-owner' : 'missing'

  return {
    async createOrganization(org, owner) {
      try {
        const [row] = await rows(
          `WITH made AS (INSERT INTO organizations (id, name, slug, logo, created_at) VALUES ($1::text, $2::text, $3::text, $4::text, $5::timestamptz) RETURNING ${ORG}),
                joined AS (INSERT INTO organization_members (id, organization_id, user_id, role, joined_at) SELECT $6::text, id, $7::text, 'owner', $8::timestamptz FROM made RETURNING id)
           SELECT made.* FROM made, joined`,
          [org.id, org.name, org.slug, org.logo, org.createdAt, owner.id, owner.userId, owner.joinedAt],
        )
        return row ? toOrganization(row) : null
      } catch (error) {
        if (isUniqueViolation(error)) return null
        throw error
      }
    },
    async getOrganization(id) {
      const [row] = await rows(`SELECT ${ORG} FROM organizations WHERE id = $1::text`, [id])
      return row ? toOrganization(row) : null
    },
    async updateOrganization(id, changes) {
      try {
        const [row] = await rows(
          `UPDATE organizations SET name = COALESCE($2::text, name), slug = COALESCE($3::text, slug), logo = CASE WHEN $5::boolean THEN $4::text ELSE logo END
           WHERE id = $1::text RETURNING ${ORG}`,
          [id, changes.name ?? null, changes.slug ?? null, changes.logo ?? null, changes.logo !== undefined],
        )
        return row ? toOrganization(row) : null
      } catch (error) {
        if (isUniqueViolation(error)) return 'slug-taken'
        throw error
      }
    },
    async deleteOrganization(id) {
      return (await rows(`DELETE FROM organizations WHERE id = $1::text RETURNING id`, [id])).length > 0
    },
    async listOrganizationsOfUser(userId) {
      const found = await rows(
        `SELECT o.id, o.name, o.slug, o.logo, o.created_at, m.role FROM organization_members m JOIN organizations o ON o.id = m.organization_id
         WHERE m.user_id = $1::text ORDER BY o.name, o.id`,
        [userId],
      )
      return found.map((r) => ({ ...toOrganization(r), role: String(r.role) }))
    },
    async getMember(organizationId, userId) {
      const [row] = await rows(`SELECT ${MEMBER} FROM organization_members WHERE organization_id = $1::text AND user_id = $2::text`, [organizationId, userId])
      return row ? toMember(row) : null
    },
    async getMemberById(memberId) {
      const [row] = await rows(
        `SELECT m.id, m.organization_id, m.user_id, m.role, m.joined_at, o.slug FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.id = $1::text`,
        [memberId],
      )
      return row ? { ...toMember(row), slug: String(row.slug) } : null
    },
    async listMembers(organizationId) {
      const found = await rows(
        `SELECT m.id, m.organization_id, m.user_id, m.role, m.joined_at, u.name, u.email, u.image
         FROM organization_members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1::text ORDER BY m.joined_at, m.id`,
        [organizationId],
      )
      return found.map((r) => ({ ...toMember(r), name: str(r.name), email: str(r.email), image: str(r.image) }))
    },
    setMemberRole: (organizationId, userId, role) =>
      once(async () => {
        const changed = await rows(
          `UPDATE organization_members m SET role = $3::text
           WHERE m.organization_id = $1::text AND m.user_id = $2::text AND (m.role <> 'owner' OR $3::text = 'owner' OR ${anotherOwner})
           RETURNING m.id`,
          [organizationId, userId, role],
        )
        return changed.length ? 'done' : whyNot(organizationId, userId)
      }),
    removeMember: (organizationId, userId) =>
      once(async () => {
        const removed = await rows(
          `DELETE FROM organization_members m
           WHERE m.organization_id = $1::text AND m.user_id = $2::text AND (m.role <> 'owner' OR ${anotherOwner})
           RETURNING m.id`,
          [organizationId, userId],
        )
        return removed.length ? 'done' : whyNot(organizationId, userId)
      }),
    async activeSessionsOf(organizationId, userId) {
      const found = await rows(
        `SELECT a.session_token FROM organization_active_sessions a JOIN organization_members m ON m.id = a.member_id
         WHERE m.organization_id = $1::text AND m.user_id = $2::text`,
        [organizationId, userId],
      )
      return found.map((r) => String(r.session_token))
    },
    async createInvitation(inv) {
      const [row] = await rows(
        `INSERT INTO organization_invitations (id, organization_id, email, role, token_hash, invited_by, expires, created_at)
         VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $8::timestamptz)
         ON CONFLICT (organization_id, email) DO UPDATE SET id = EXCLUDED.id, role = EXCLUDED.role, token_hash = EXCLUDED.token_hash,
           invited_by = EXCLUDED.invited_by, expires = EXCLUDED.expires, created_at = EXCLUDED.created_at
         RETURNING ${INVITATION}`,
        [inv.id, inv.organizationId, inv.email, inv.role, inv.tokenHash, inv.invitedBy, inv.expires, inv.createdAt],
      )
      return toInvitation(row!)
    },
    async listInvitations(organizationId) {
      return (await rows(`SELECT ${INVITATION} FROM organization_invitations WHERE organization_id = $1::text ORDER BY created_at, id`, [organizationId])).map(toInvitation)
    },
    async getInvitationByToken(tokenHash) {
      const [row] = await rows(
        `SELECT i.id, i.organization_id, i.email, i.role, i.invited_by, i.expires, i.created_at, o.name AS organization_name
         FROM organization_invitations i JOIN organizations o ON o.id = i.organization_id WHERE i.token_hash = $1::text`,
        [tokenHash],
      )
      return row ? { ...toInvitation(row), organizationName: String(row.organization_name) } : null
    },
    async deleteInvitation(organizationId, invitationId) {
      const [row] = await rows(`DELETE FROM organization_invitations WHERE organization_id = $1::text AND id = $2::text RETURNING ${INVITATION}`, [organizationId, invitationId])
      return row ? toInvitation(row) : null
    },
    async acceptInvitation({ tokenHash, email, userId, memberId, now }) {
      const [row] = await rows(
        `WITH taken AS (
           DELETE FROM organization_invitations WHERE token_hash = $1::text AND email = $2::text AND expires > $3::timestamptz RETURNING ${INVITATION}
         ), added AS (
           INSERT INTO organization_members (id, organization_id, user_id, role, joined_at) SELECT $4::text, organization_id, $5::text, role, $3::timestamptz FROM taken
           ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING ${MEMBER}
         )
         SELECT t.id, t.organization_id, t.email, t.role, t.invited_by, t.expires, t.created_at,
           a.id AS member_id, a.role AS member_role, a.joined_at AS member_joined_at
         FROM taken t LEFT JOIN added a ON true`,
        [tokenHash, email, now, memberId, userId],
      )
      if (!row) return null
      const invitation = toInvitation(row)
      if (row.member_id != null) {
        return { invitation, member: { id: String(row.member_id), organizationId: invitation.organizationId, userId, role: String(row.member_role), joinedAt: date(row.member_joined_at) } }
      }
      // A member already: they keep the role they have.
      const [held] = await rows(`SELECT ${MEMBER} FROM organization_members WHERE organization_id = $1::text AND user_id = $2::text`, [invitation.organizationId, userId])
      return held ? { invitation, member: toMember(held) } : null
    },
    async addMember(member) {
      let added
      try {
        ;[added] = await rows(
          `INSERT INTO organization_members (${MEMBER}) SELECT $1::text, id, $3::text, $4::text, $5::timestamptz FROM organizations WHERE id = $2::text
           ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING ${MEMBER}`,
          [member.id, member.organizationId, member.userId, member.role, member.joinedAt],
        )
      } catch (error) {
        // The organization (or the user) went in between: as none.
        if ((error as { code?: string })?.code !== '23503') throw error
        return null
      }
      if (added) return { member: toMember(added), added: true }
      const [held] = await rows(`SELECT ${MEMBER} FROM organization_members WHERE organization_id = $1::text AND user_id = $2::text`, [member.organizationId, member.userId])
      return held ? { member: toMember(held), added: false } : null
    },
    async setActiveMember(sessionToken, memberId) {
      if (memberId === null) await rows(`DELETE FROM organization_active_sessions WHERE session_token = $1::text`, [sessionToken])
      else {
        await rows(
          `INSERT INTO organization_active_sessions (session_token, member_id) VALUES ($1::text, $2::text)
           ON CONFLICT (session_token) DO UPDATE SET member_id = EXCLUDED.member_id`,
          [sessionToken, memberId],
        )
      }
    },
    async activeOrganization(sessionToken, userId) {
      const [row] = await rows(
        `SELECT o.id, o.slug, m.role FROM organization_active_sessions a
         JOIN organization_members m ON m.id = a.member_id AND m.user_id = $2::text
         JOIN organizations o ON o.id = m.organization_id WHERE a.session_token = $1::text`,
        [sessionToken, userId],
      )
      return row ? { id: String(row.id), slug: String(row.slug), role: String(row.role) } : null
    },
  }
}
