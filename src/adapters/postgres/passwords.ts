/**
 * The SQL adapter's password hashes: one `passwords` row per user who has one (migration 12).
 * Setting is one upsert and removing one DELETE, so concurrent writers leave exactly one hash.
 */
import { requirePasswordHash } from '../passwords.js'
import type { CompleteAdapter } from '../types.js'
import { requireString } from '../validate.js'
import type { Rows } from './queryable.js'
import { unknownUser, write } from './sql-errors.js'

type PasswordMethods = Pick<CompleteAdapter, 'getPasswordHash' | 'setPasswordHash'>

export function passwordMethods(rows: Rows): PasswordMethods {
  return {
    async getPasswordHash(userId) {
      const [row] = await rows<{ hash: string }>(`SELECT hash FROM passwords WHERE user_id = $1::text`, [userId])
      return row?.hash ?? null
    },

    async setPasswordHash(userId, hash) {
      const method = 'setPasswordHash'
      const owner = requireString(method, 'userId', userId)
      const checked = requirePasswordHash(method, hash)
      if (checked === null) {
        await rows(`DELETE FROM passwords WHERE user_id = $1::text`, [owner])
        return
      }
      // The users foreign key refuses a user that does not exist; sql-errors maps it to UnknownUser.
      await write(
        () =>
          rows(
            `INSERT INTO passwords (user_id, hash, updated_at) VALUES ($1::text, $2::text, $3::timestamptz)
             ON CONFLICT (user_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = EXCLUDED.updated_at`,
            [owner, checked, new Date()],
          ),
        { foreignKey: unknownUser(method, owner) },
      )
    },
  }
}
