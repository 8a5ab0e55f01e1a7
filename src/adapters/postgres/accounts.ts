/** The SQL adapter's accounts: one row per (provider, providerAccountId); the token fields change through one fixed statement. */
import type { AdapterAccount } from '../../core/types.js'
import { CHANGEABLE_NUMBERS, CHANGEABLE_TEXT, checkAccountUpdate } from '../account-changes.js'
import { AdapterError } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import { requireString } from '../validate.js'
import type { Rows } from './queryable.js'
import { ACCOUNT_COLUMNS, accountParams, toAccount, type AccountRow } from './rows.js'
import { unknownUser, write } from './sql-errors.js'

export function accountMethods(rows: Rows): Pick<CompleteAdapter, 'linkAccount' | 'unlinkAccount' | 'getAccount' | 'listAccountsByUserId' | 'updateAccount'> {
  return {
    async linkAccount(account) {
      const method = 'linkAccount'
      const userId = requireString(method, 'userId', account.userId)
      const provider = requireString(method, 'provider', account.provider)
      const providerAccountId = requireString(method, 'providerAccountId', account.providerAccountId)
      requireString(method, 'type', account.type)
      // extra goes in as text and is cast to jsonb by the server: a driver that sees a jsonb
      // parameter (postgres.js) would otherwise encode the JSON string a second time.
      const [row] = await write(
        () =>
          rows<AccountRow>(
            `INSERT INTO accounts (${ACCOUNT_COLUMNS})
             VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
                     $11::double precision, $12::double precision, $13::text::jsonb)
             RETURNING ${ACCOUNT_COLUMNS}`,
            accountParams(account),
          ),
        {
          unique: () =>
            new AdapterError(
              'DuplicateAccount',
              `${method}: expected a new account, but provider "${provider}" account "${providerAccountId}" is already linked`,
            ),
          foreignKey: unknownUser(method, userId),
        },
      )
      return toAccount(row!)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const [row] = await rows<AccountRow>(
        `DELETE FROM accounts WHERE provider = $1::text AND provider_account_id = $2::text RETURNING ${ACCOUNT_COLUMNS}`,
        [provider, providerAccountId],
      )
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider): Promise<AdapterAccount | null> {
      const [row] = await rows<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = $1::text AND provider_account_id = $2::text`,
        [provider, providerAccountId],
      )
      return row ? toAccount(row) : null
    },

    async listAccountsByUserId(userId) {
      const list = await rows<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = $1::text ORDER BY provider, provider_account_id`,
        [userId],
      )
      return list.map(toAccount)
    },

    async updateAccount(input, options) {
      const { provider, providerAccountId, changes, ifRefreshToken } = checkAccountUpdate(input, options)
      const params: unknown[] = [provider, providerAccountId, ifRefreshToken !== undefined, ifRefreshToken ?? null]
      for (const field of CHANGEABLE_FIELDS) params.push(field in changes, changes[field] ?? null)
      const [row] = await rows<AccountRow>(updateAccountSql, params)
      return row ? toAccount(row) : null
    },
  }
}

const CHANGEABLE_FIELDS = [...CHANGEABLE_TEXT, ...CHANGEABLE_NUMBERS]

/**
 * One fixed statement for every `updateAccount`: each field has a flag (given or not) and a value,
 * and $3/$4 make it a compare-and-set on the stored refresh token when asked. IS NOT DISTINCT
 * FROM so that "no refresh token" (null) compares too.
 */
const updateAccountSql = `UPDATE accounts SET
  ${CHANGEABLE_FIELDS.map((field, i) => {
    const type = (CHANGEABLE_NUMBERS as readonly string[]).includes(field) ? 'double precision' : 'text'
    return `${field} = CASE WHEN $${5 + 2 * i}::boolean THEN $${6 + 2 * i}::${type} ELSE ${field} END`
  }).join(',\n  ')}
WHERE provider = $1::text AND provider_account_id = $2::text
  AND (NOT $3::boolean OR refresh_token IS NOT DISTINCT FROM $4::text)
RETURNING ${ACCOUNT_COLUMNS}`

