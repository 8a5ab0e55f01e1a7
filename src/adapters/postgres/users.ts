/** The SQL adapter's users: one row each, the email unique (a constraint, so it holds under concurrency). */
import { randomUUID } from 'node:crypto'
import { AdapterError } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import { requireDateOrNull, requireString, requireStringOrNull } from '../validate.js'
import type { Rows } from './queryable.js'
import { toUser, USER_COLUMNS, type UserRow } from './rows.js'
import { unknownUser, write } from './sql-errors.js'

export function userMethods(rows: Rows): Pick<CompleteAdapter, 'createUser' | 'getUser' | 'getUserByEmail' | 'getUserByAccount' | 'updateUser' | 'deleteUser'> {
  return {
    async createUser(user) {
      const method = 'createUser'
      const email = requireString(method, 'email', user.email)
      const emailVerified = requireDateOrNull(method, 'emailVerified', user.emailVerified ?? null)
      const name = requireStringOrNull(method, 'name', user.name ?? null)
      const image = requireStringOrNull(method, 'image', user.image ?? null)
      const id = typeof user.id === 'string' && user.id.length > 0 ? user.id : randomUUID()
      const [row] = await write(
        () =>
          rows<UserRow>(
            `INSERT INTO users (id, email, email_verified, name, image)
             VALUES ($1::text, $2::text, $3::timestamptz, $4::text, $5::text)
             RETURNING ${USER_COLUMNS}`,
            [id, email, emailVerified, name, image],
          ),
        {
          unique: (constraint) =>
            constraint === 'users_email_unique'
              ? new AdapterError('DuplicateEmail', `${method}: expected a new email address, but a user with this email already exists`)
              : new AdapterError('DuplicateUser', `${method}: a user with id "${id}" already exists`),
        },
      )
      return toUser(row!)
    },

    async getUser(id) {
      const [row] = await rows<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1::text`, [id])
      return row ? toUser(row) : null
    },

    async getUserByEmail(email) {
      const [row] = await rows<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1::text`, [email])
      return row ? toUser(row) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const [row] = await rows<UserRow>(
        `SELECT u.id, u.email, u.email_verified, u.name, u.image
         FROM accounts a JOIN users u ON u.id = a.user_id
         WHERE a.provider = $1::text AND a.provider_account_id = $2::text`,
        [provider, providerAccountId],
      )
      return row ? toUser(row) : null
    },

    async updateUser(user) {
      const method = 'updateUser'
      const id = requireString(method, 'id', user.id)
      const has = (field: string) => field in user && (user as Record<string, unknown>)[field] !== undefined
      const email = has('email') ? requireString(method, 'email', user.email) : null
      const emailVerified = has('emailVerified') ? requireDateOrNull(method, 'emailVerified', user.emailVerified) : null
      const name = has('name') ? requireStringOrNull(method, 'name', user.name) : null
      const image = has('image') ? requireStringOrNull(method, 'image', user.image) : null
      // One fixed statement; each CASE keeps the column unless its flag says the caller gave it.
      const [row] = await write(
        () =>
          rows<UserRow>(
            `UPDATE users SET
               email = CASE WHEN $2::boolean THEN $3::text ELSE email END,
               email_verified = CASE WHEN $4::boolean THEN $5::timestamptz ELSE email_verified END,
               name = CASE WHEN $6::boolean THEN $7::text ELSE name END,
               image = CASE WHEN $8::boolean THEN $9::text ELSE image END
             WHERE id = $1::text
             RETURNING ${USER_COLUMNS}`,
            [id, has('email'), email, has('emailVerified'), emailVerified, has('name'), name, has('image'), image],
          ),
        {
          unique: () =>
            new AdapterError('DuplicateEmail', `${method}: expected a new email address, but another user has this email`),
        },
      )
      if (!row) throw unknownUser(method, id)()
      return toUser(row)
    },

    async deleteUser(userId) {
      // Accounts, sessions, authenticators, factors and recovery codes go with it: ON DELETE CASCADE.
      const [row] = await rows<UserRow>(`DELETE FROM users WHERE id = $1::text RETURNING ${USER_COLUMNS}`, [userId])
      return row ? toUser(row) : null
    },
  }
}
