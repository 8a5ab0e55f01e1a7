/**
 * The SQL adapter's one-time email codes: one row per address. Each attempt is counted by one
 * atomic UPDATE ... RETURNING, so servers sharing the database share the count, and a right
 * answer uses the code by a DELETE that only the row it counted can match.
 */
import type { CompleteAdapter } from '../types.js'
import { requireExpiredFilter } from '../validate.js'
import { judgeAttempt, requireAttempt, requireCode } from '../verification-codes.js'
import type { Rows } from './queryable.js'

interface CodeRow {
  code: string
  expires: Date | string
  attempts: number
}

export function verificationCodeMethods(rows: Rows): Pick<CompleteAdapter, 'createVerificationCode' | 'useVerificationCode' | 'deleteVerificationCodes'> {
  return {
    async createVerificationCode(record) {
      const { identifier, code, expires } = requireCode('createVerificationCode', record)
      await rows(
        `INSERT INTO verification_codes (identifier, code, expires, attempts) VALUES ($1::text, $2::text, $3::timestamptz, 0)
         ON CONFLICT (identifier) DO UPDATE SET code = EXCLUDED.code, expires = EXCLUDED.expires, attempts = 0`,
        [identifier, code, expires],
      )
    },

    async useVerificationCode(attempt) {
      const { identifier, codes, maxAttempts } = requireAttempt('useVerificationCode', attempt)
      const [row] = await rows<CodeRow>(
        `UPDATE verification_codes SET attempts = attempts + 1 WHERE identifier = $1::text RETURNING code, expires, attempts`,
        [identifier],
      )
      const counted = row && { code: row.code, expires: new Date(row.expires), attempts: Number(row.attempts) }
      return judgeAttempt(counted, codes, maxAttempts, async () => {
        const used = await rows(`DELETE FROM verification_codes WHERE identifier = $1::text AND code = $2::text RETURNING 1`, [identifier, counted!.code])
        return used.length === 1
      })
    },

    async deleteVerificationCodes(filter) {
      const { expiredBefore, limit } = requireExpiredFilter('deleteVerificationCodes', filter)
      const params: unknown[] = [expiredBefore]
      const picked = limit === undefined ? '' : `ORDER BY expires LIMIT $${params.push(limit)}::bigint`
      // Expiry is checked again on the row deleted: a code issued afresh meanwhile (the same identifier, upserted) stays.
      const [row] = await rows<{ deleted: number | string }>(
        `WITH gone AS (
           DELETE FROM verification_codes WHERE expires < $1::timestamptz AND identifier IN (
             SELECT identifier FROM verification_codes WHERE expires < $1::timestamptz ${picked}
           ) RETURNING 1
         ) SELECT count(*) AS deleted FROM gone`,
        params,
      )
      return Number(row?.deleted ?? 0)
    },
  }
}
