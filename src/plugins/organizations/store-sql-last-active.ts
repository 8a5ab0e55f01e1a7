/**
 * The membership each user last made active, in PostgreSQL (plugin migration 3): a new sign-in
 * starts in it. Keyed by the user and naming the membership, so a member removed (or an
 * organization deleted) takes the row with it, and a membership of another user is never stored.
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { LastActiveStore, MemberRecord } from './records.js'

export const lastActiveMigration: PluginMigration = {
  version: 3,
  name: 'the organization each user last had active',
  statements: [
    `CREATE TABLE organization_last_active (
      user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      member_id text NOT NULL REFERENCES organization_members (id) ON DELETE CASCADE
    )`,
    'CREATE INDEX organization_last_active_member_id ON organization_last_active (member_id)',
  ],
}

type Row = Record<string, unknown>
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string))

export function sqlLastActiveStore(db: SchemaQueryable): LastActiveStore {
  const rows = async (sql: string, params: unknown[]) => (await db.query<Row>(sql, params)).rows
  return {
    async setLastActiveMember(userId, memberId) {
      if (memberId === null) {
        await rows('DELETE FROM organization_last_active WHERE user_id = $1::text', [userId])
        return
      }
      try {
        // Only a membership of this user's: the SELECT finds none of another's.
        await rows(
          `INSERT INTO organization_last_active (user_id, member_id) SELECT user_id, id FROM organization_members WHERE id = $2::text AND user_id = $1::text
           ON CONFLICT (user_id) DO UPDATE SET member_id = EXCLUDED.member_id`,
          [userId, memberId],
        )
      } catch (error) {
        // The membership (or the user) went in between: nothing to remember.
        if ((error as { code?: string })?.code !== '23503') throw error
      }
    },
    async lastActiveMember(userId) {
      const [row] = await rows(
        `SELECT m.id, m.organization_id, m.user_id, m.role, m.joined_at FROM organization_last_active l
         JOIN organization_members m ON m.id = l.member_id AND m.user_id = l.user_id WHERE l.user_id = $1::text`,
        [userId],
      )
      return row ? ({ id: String(row.id), organizationId: String(row.organization_id), userId: String(row.user_id), role: String(row.role), joinedAt: date(row.joined_at) } satisfies MemberRecord) : null
    },
  }
}
