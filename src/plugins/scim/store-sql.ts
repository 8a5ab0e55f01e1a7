/**
 * The SCIM store in PostgreSQL. Every statement names the organization, so a token of one
 * organization never reaches another's rows; uniqueness (a userName in any case, a latchkey user,
 * a group's name) is the database's, so two servers provisioning at once agree.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { GroupOfUser, ScimGroupRecord, ScimStore, ScimTokenRecord, ScimUserRecord } from './records.js'

export const migrations: PluginMigration[] = [
  {
    version: 1,
    name: 'SCIM tokens, provisioned users and groups',
    statements: [
      `CREATE TABLE scim_tokens (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_by text REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL
      )`,
      'CREATE INDEX scim_tokens_organization_id ON scim_tokens (organization_id)',
      `CREATE TABLE scim_users (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_name text NOT NULL,
        external_id text,
        active boolean NOT NULL,
        attributes jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL,
        UNIQUE (organization_id, user_id)
      )`,
      'CREATE UNIQUE INDEX scim_users_user_name ON scim_users (organization_id, lower(user_name))',
      'CREATE INDEX scim_users_external_id ON scim_users (organization_id, external_id)',
      `CREATE TABLE scim_groups (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        display_name text NOT NULL,
        external_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        version integer NOT NULL
      )`,
      'CREATE UNIQUE INDEX scim_groups_display_name ON scim_groups (organization_id, lower(display_name))',
      `CREATE TABLE scim_group_members (
        group_id text NOT NULL REFERENCES scim_groups (id) ON DELETE CASCADE,
        user_resource_id text NOT NULL REFERENCES scim_users (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, user_resource_id)
      )`,
      'CREATE INDEX scim_group_members_user ON scim_group_members (user_resource_id)',
    ],
  },
  {
    version: 2,
    name: "SCIM tokens' group-to-role mapping",
    statements: [`ALTER TABLE scim_tokens ADD COLUMN group_roles jsonb NOT NULL DEFAULT '{}'::jsonb`],
  },
]

type Row = Record<string, unknown>
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string))
const str = (v: unknown) => (v == null ? null : String(v))
const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505'

const TOKEN = 'id, organization_id, name, created_by, created_at, group_roles'
const USER = 'id, organization_id, user_id, user_name, external_id, active, attributes, created_at, updated_at, version'
const GROUP = 'id, organization_id, display_name, external_id, created_at, updated_at, version'
/** The members of `g`, sorted, as JSON: a subquery over a group row. */
const membersOf = (g: string) => `COALESCE((SELECT json_agg(m.user_resource_id ORDER BY m.user_resource_id) FROM scim_group_members m WHERE m.group_id = ${g}.id), '[]'::json) AS members`
/** The organization's own user resources among the JSON list `$n`. */
const ownUsers = (org: string, list: string) => `SELECT u.id FROM scim_users u WHERE u.organization_id = ${org} AND u.id IN (SELECT jsonb_array_elements_text(${list}::text::jsonb))`

const toToken = (r: Row): ScimTokenRecord => ({
  id: String(r.id),
  organizationId: String(r.organization_id),
  name: String(r.name),
  createdBy: str(r.created_by),
  createdAt: date(r.created_at),
  groupRoles: (parsed(r.group_roles) ?? {}) as Record<string, string>,
})
const toUser = (r: Row): ScimUserRecord => ({
  id: String(r.id),
  organizationId: String(r.organization_id),
  userId: String(r.user_id),
  userName: String(r.user_name),
  externalId: str(r.external_id),
  active: r.active === true,
  attributes: parsed(r.attributes) as Record<string, unknown>,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  version: Number(r.version),
})
const toGroup = (r: Row): ScimGroupRecord => ({
  id: String(r.id),
  organizationId: String(r.organization_id),
  displayName: String(r.display_name),
  externalId: str(r.external_id),
  members: (parsed(r.members) as unknown[]).map(String),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  version: Number(r.version),
})

export function sqlStore(db: SchemaQueryable): ScimStore {
  const rows = async (sql: string, params: unknown[]) => (await db.query<Row>(sql, params)).rows
  /** A write that a unique index may refuse: 'taken' then. */
  const unique = async <T>(run: () => Promise<T>): Promise<T | 'taken'> => {
    try {
      return await run()
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken'
      throw error
    }
  }
  const count = (r: Row | undefined) => Number(r?.total ?? 0)

  return {
    async createScimToken(t) {
      const [row] = await rows(
        `INSERT INTO scim_tokens (id, organization_id, name, token_hash, created_by, created_at, group_roles) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, $7::text::jsonb) RETURNING ${TOKEN}`,
        [t.id, t.organizationId, t.name, t.tokenHash, t.createdBy, t.createdAt, JSON.stringify(t.groupRoles ?? {})],
      )
      return toToken(row!)
    },
    async listScimTokens(organizationId) {
      return (await rows(`SELECT ${TOKEN} FROM scim_tokens WHERE organization_id = $1::text ORDER BY created_at, id`, [organizationId])).map(toToken)
    },
    async deleteScimToken(organizationId, id) {
      return (await rows(`DELETE FROM scim_tokens WHERE organization_id = $1::text AND id = $2::text RETURNING id`, [organizationId, id])).length > 0
    },
    async scimTokenByHash(tokenHash) {
      const [row] = await rows(`SELECT ${TOKEN} FROM scim_tokens WHERE token_hash = $1::text`, [tokenHash])
      return row ? toToken(row) : null
    },
    createScimUser: (u) =>
      unique(async () => {
        const [row] = await rows(
          `INSERT INTO scim_users (${USER}) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::boolean, $7::text::jsonb, $8::timestamptz, $9::timestamptz, $10::integer) RETURNING ${USER}`,
          [u.id, u.organizationId, u.userId, u.userName, u.externalId, u.active, JSON.stringify(u.attributes), u.createdAt, u.updatedAt, u.version],
        )
        return toUser(row!)
      }),
    async getScimUser(organizationId, id) {
      const [row] = await rows(`SELECT ${USER} FROM scim_users WHERE organization_id = $1::text AND id = $2::text`, [organizationId, id])
      return row ? toUser(row) : null
    },
    async listScimUsers(organizationId, where, { offset, limit }) {
      const filter = `organization_id = $1::text AND ($2::text IS NULL OR lower(user_name) = lower($2::text)) AND ($3::text IS NULL OR external_id = $3::text)`
      const params = [organizationId, where.userName ?? null, where.externalId ?? null]
      const [[total], found] = await Promise.all([
        rows(`SELECT count(*) AS total FROM scim_users WHERE ${filter}`, params),
        limit > 0 ? rows(`SELECT ${USER} FROM scim_users WHERE ${filter} ORDER BY created_at, id OFFSET $4::integer LIMIT $5::integer`, [...params, offset, limit]) : [],
      ])
      return { total: count(total), users: found.map(toUser) }
    },
    updateScimUser: (organizationId, id, c) =>
      unique(async () => {
        const [row] = await rows(
          `UPDATE scim_users SET user_name = $3::text, external_id = $4::text, active = $5::boolean, attributes = $6::text::jsonb, updated_at = $7::timestamptz, version = version + 1
           WHERE organization_id = $1::text AND id = $2::text RETURNING ${USER}`,
          [organizationId, id, c.userName, c.externalId, c.active, JSON.stringify(c.attributes), c.updatedAt],
        )
        return row ? toUser(row) : null
      }),
    async deleteScimUser(organizationId, id) {
      const [row] = await rows(`DELETE FROM scim_users WHERE organization_id = $1::text AND id = $2::text RETURNING ${USER}`, [organizationId, id])
      return row ? toUser(row) : null
    },
    createScimGroup: (g) =>
      unique(async () => {
        const [row] = await rows(
          `WITH made AS (
             INSERT INTO scim_groups (${GROUP}) VALUES ($1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::timestamptz, $7::integer) RETURNING ${GROUP}
           ), joined AS (
             INSERT INTO scim_group_members (group_id, user_resource_id) SELECT made.id, own.id FROM made, (${ownUsers('$2::text', '$8')}) own RETURNING user_resource_id
           )
           SELECT made.*, COALESCE((SELECT json_agg(user_resource_id ORDER BY user_resource_id) FROM joined), '[]'::json) AS members FROM made`,
          [g.id, g.organizationId, g.displayName, g.externalId, g.createdAt, g.updatedAt, g.version, JSON.stringify(g.members)],
        )
        return toGroup(row!)
      }),
    async getScimGroup(organizationId, id) {
      const [row] = await rows(`SELECT g.*, ${membersOf('g')} FROM scim_groups g WHERE g.organization_id = $1::text AND g.id = $2::text`, [organizationId, id])
      return row ? toGroup(row) : null
    },
    async listScimGroups(organizationId, where, { offset, limit }) {
      const filter = `g.organization_id = $1::text AND ($2::text IS NULL OR lower(g.display_name) = lower($2::text)) AND ($3::text IS NULL OR g.external_id = $3::text)`
      const params = [organizationId, where.displayName ?? null, where.externalId ?? null]
      const [[total], found] = await Promise.all([
        rows(`SELECT count(*) AS total FROM scim_groups g WHERE ${filter}`, params),
        limit > 0 ? rows(`SELECT g.*, ${membersOf('g')} FROM scim_groups g WHERE ${filter} ORDER BY g.created_at, g.id OFFSET $4::integer LIMIT $5::integer`, [...params, offset, limit]) : [],
      ])
      return { total: count(total), groups: found.map(toGroup) }
    },
    updateScimGroup: (organizationId, id, c) =>
      unique(async () => {
        // One statement: the sub-statements see the rows as they were, so the answer's members are the new set read from scim_users.
        const [row] = await rows(
          `WITH changed AS (
             UPDATE scim_groups SET display_name = $3::text, external_id = $4::text, updated_at = $5::timestamptz, version = version + 1
             WHERE organization_id = $1::text AND id = $2::text RETURNING ${GROUP}
           ), own AS (${ownUsers('$1::text', '$6')}),
           dropped AS (
             DELETE FROM scim_group_members m USING changed WHERE m.group_id = changed.id AND m.user_resource_id NOT IN (SELECT id FROM own)
           ), added AS (
             INSERT INTO scim_group_members (group_id, user_resource_id) SELECT changed.id, own.id FROM changed, own ON CONFLICT DO NOTHING
           )
           SELECT changed.*, COALESCE((SELECT json_agg(id ORDER BY id) FROM own), '[]'::json) AS members FROM changed`,
          [organizationId, id, c.displayName, c.externalId, c.updatedAt, JSON.stringify(c.members)],
        )
        return row ? toGroup(row) : null
      }),
    async deleteScimGroup(organizationId, id) {
      return (await rows(`DELETE FROM scim_groups WHERE organization_id = $1::text AND id = $2::text RETURNING id`, [organizationId, id])).length > 0
    },
    async groupsOfScimUser(organizationId, id) {
      const found = await rows(
        `SELECT g.id, g.display_name FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
         WHERE g.organization_id = $1::text AND m.user_resource_id = $2::text ORDER BY g.display_name, g.id`,
        [organizationId, id],
      )
      return found.map((r) => ({ id: String(r.id), displayName: String(r.display_name) }))
    },
    async groupsOfScimUsers(organizationId, ids) {
      const out: Record<string, GroupOfUser[]> = Object.fromEntries(ids.map((id) => [id, []]))
      if (!ids.length) return out
      const found = await rows(
        `SELECT m.user_resource_id, g.id, g.display_name, g.external_id FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
         WHERE g.organization_id = $1::text AND m.user_resource_id = ANY($2::text[]) ORDER BY g.display_name, g.id`,
        [organizationId, ids],
      )
      for (const r of found) out[String(r.user_resource_id)]?.push({ id: String(r.id), displayName: String(r.display_name), externalId: str(r.external_id) })
      return out
    },
  }
}
