/** The SQL adapter's verification tokens: each used once by one atomic DELETE ... RETURNING. */
import { AdapterError } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import { requireDate, requireString, requireTokenFilter } from '../validate.js'
import type { Rows } from './queryable.js'
import { toVerificationToken, TOKEN_COLUMNS, type TokenRow } from './rows.js'
import { write } from './sql-errors.js'

export function verificationTokenMethods(rows: Rows): Pick<CompleteAdapter, 'createVerificationToken' | 'useVerificationToken' | 'deleteVerificationTokens'> {
  return {
    async createVerificationToken(verificationToken) {
      const method = 'createVerificationToken'
      const identifier = requireString(method, 'identifier', verificationToken.identifier)
      const token = requireString(method, 'token', verificationToken.token)
      const expires = requireDate(method, 'expires', verificationToken.expires)
      const [row] = await write(
        () =>
          rows<TokenRow>(
            `INSERT INTO verification_tokens (identifier, token, expires) VALUES ($1::text, $2::text, $3::timestamptz)
             RETURNING ${TOKEN_COLUMNS}`,
            [identifier, token, expires],
          ),
        {
          unique: () =>
            new AdapterError('DuplicateVerificationToken', `${method}: expected a new token, but this identifier already has it`),
        },
      )
      return toVerificationToken(row!)
    },

    async useVerificationToken({ identifier, token }) {
      // One atomic statement: of any number of concurrent callers, exactly one gets the row.
      const [row] = await rows<TokenRow>(
        `DELETE FROM verification_tokens WHERE identifier = $1::text AND token = $2::text RETURNING ${TOKEN_COLUMNS}`,
        [identifier, token],
      )
      return row ? toVerificationToken(row) : null
    },

    async deleteVerificationTokens(filter) {
      const { identifier, expiredBefore, limit } = requireTokenFilter('deleteVerificationTokens', filter)
      // Only the given conditions, so each shape gets a plan that uses its index (primary key, or expires).
      const params: unknown[] = []
      const where: string[] = []
      if (identifier !== undefined) where.push(`identifier = $${params.push(identifier)}::text`)
      if (expiredBefore !== undefined) where.push(`expires < $${params.push(expiredBefore)}::timestamptz`)
      // PostgreSQL's DELETE has no LIMIT: a subquery picks the rows, oldest first.
      const picked = limit === undefined ? '' : `ORDER BY expires LIMIT $${params.push(limit)}::bigint`
      const [row] = await rows<{ deleted: number | string }>(
        `WITH gone AS (
           DELETE FROM verification_tokens WHERE (identifier, token) IN (
             SELECT identifier, token FROM verification_tokens WHERE ${where.join(' AND ')} ${picked}
           ) RETURNING 1
         ) SELECT count(*) AS deleted FROM gone`,
        params,
      )
      return Number(row?.deleted ?? 0)
    },
  }
}
