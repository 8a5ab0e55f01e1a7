/**
 * The SQL adapter: every contract method as one parameterised statement over a Queryable, so it
 * runs the same on PGlite, a PostgreSQL server or a PostgreSQL-compatible distributed engine.
 * Rules (unique email, unique account, cascade on deleteUser) live in the schema's constraints,
 * which makes them hold under concurrency; this file turns constraint errors into AdapterErrors.
 * Call `migrate` first (openEmbedded and openDatabase do).
 */
import { randomUUID } from 'node:crypto'
import type { AdapterAccount, DeviceBinding } from '../../core/types.js'
import { CHANGEABLE_NUMBERS, CHANGEABLE_TEXT, checkAccountUpdate } from '../account-changes.js'
import { AdapterError, describeValue } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import {
  requireBoolean,
  requireCounter,
  requireDate,
  requireDateOrNull,
  requireString,
  requireStringOrNull,
  requireTokenFilter,
} from '../validate.js'
import { toQueryable } from './drivers/index.js'
import { withQueryListener, type QueryListener } from './query-hooks.js'
import type { Queryable } from './queryable.js'
import {
  ACCOUNT_COLUMNS,
  accountParams,
  AUTHENTICATOR_COLUMNS,
  SESSION_COLUMNS,
  toAccount,
  toAuthenticator,
  toSession,
  toUser,
  toVerificationToken,
  TOKEN_COLUMNS,
  USER_COLUMNS,
  type AccountRow,
  type AuthenticatorRow,
  type SessionRow,
  type TokenRow,
  type UserRow,
} from './rows.js'
import { constraintName, errorCode, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from './sql-errors.js'

export interface PostgresAdapterOptions {
  /** Called before every query the adapter sends (for benchmarks: queries per request). */
  onQuery?: QueryListener
}

export interface PostgresAdapter extends CompleteAdapter {
  /** The Queryable the adapter sends its statements through. */
  readonly db: Queryable
}

/** Runs a write, turning a unique or foreign-key violation into the AdapterError the caller names. */
async function write<T>(
  run: () => Promise<T>,
  on: { unique?: (constraint: string | undefined) => AdapterError; foreignKey?: () => AdapterError },
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const code = errorCode(error)
    if (code === UNIQUE_VIOLATION && on.unique) throw Object.assign(on.unique(constraintName(error)), { cause: error })
    if (code === FOREIGN_KEY_VIOLATION && on.foreignKey) throw Object.assign(on.foreignKey(), { cause: error })
    throw error
  }
}

const unknownUser = (method: string, userId: string) => () =>
  new AdapterError('UNKNOWN_USER', `${method}: expected an existing user, but no user has id "${userId}"`)

export function PostgresAdapter(driverOrQueryable: unknown, options: PostgresAdapterOptions = {}): PostgresAdapter {
  const base = toQueryable(driverOrQueryable)
  const db = options.onQuery ? withQueryListener(base, options.onQuery) : base

  async function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await db.query<T>(sql, params)).rows
  }

  return {
    db,

    // ------------------------------------------------------------ users

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
              ? new AdapterError('DUPLICATE_EMAIL', `${method}: expected a new email address, but a user with this email already exists`)
              : new AdapterError('DUPLICATE_USER', `${method}: a user with id "${id}" already exists`),
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
            new AdapterError('DUPLICATE_EMAIL', `${method}: expected a new email address, but another user has this email`),
        },
      )
      if (!row) throw unknownUser(method, id)()
      return toUser(row)
    },

    async deleteUser(userId) {
      // Accounts, sessions and authenticators go with it: ON DELETE CASCADE.
      const [row] = await rows<UserRow>(`DELETE FROM users WHERE id = $1::text RETURNING ${USER_COLUMNS}`, [userId])
      return row ? toUser(row) : null
    },

    // ------------------------------------------------------------ accounts

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
              'DUPLICATE_ACCOUNT',
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

    // ------------------------------------------------------------ sessions

    async createSession(session) {
      const method = 'createSession'
      const sessionToken = requireString(method, 'sessionToken', session.sessionToken)
      const userId = requireString(method, 'userId', session.userId)
      const expires = requireDate(method, 'expires', session.expires)
      const createdAt = session.createdAt === undefined ? null : requireDate(method, 'createdAt', session.createdAt)
      const userAgent = session.userAgent == null ? null : requireString(method, 'userAgent', session.userAgent)
      const signInProvider = session.signInProvider == null ? null : requireString(method, 'signInProvider', session.signInProvider)
      const [row] = await write(
        () =>
          rows<SessionRow>(
            `INSERT INTO sessions (session_token, user_id, expires, created_at, user_agent, sign_in_provider)
             VALUES ($1::text, $2::text, $3::timestamptz, $4::timestamptz, $5::text, $6::text)
             RETURNING ${SESSION_COLUMNS}`,
            [sessionToken, userId, expires, createdAt, userAgent, signInProvider],
          ),
        {
          unique: () => new AdapterError('DUPLICATE_SESSION', `${method}: expected a new session token, but this one is already in use`),
          foreignKey: unknownUser(method, userId),
        },
      )
      return toSession(row!)
    },

    async getSessionAndUser(sessionToken) {
      // One round trip: the session and its user in a join.
      const [row] = await rows<SessionRow & UserRow>(
        `SELECT s.session_token, s.user_id, s.expires, s.device_binding, s.created_at, s.user_agent, s.sign_in_provider, u.id, u.email, u.email_verified, u.name, u.image,
           EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = s.user_id AND a.refresh_error IS NOT NULL) AS refresh_error
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.session_token = $1::text`,
        [sessionToken],
      )
      return row ? { session: toSession(row), user: toUser(row) } : null
    },

    async updateSession(session) {
      const method = 'updateSession'
      const sessionToken = requireString(method, 'sessionToken', session.sessionToken)
      const expires = session.expires === undefined ? null : requireDate(method, 'expires', session.expires)
      const userId = session.userId === undefined ? null : requireString(method, 'userId', session.userId)
      const binding = session.deviceBinding == null ? null : JSON.stringify(requireBinding(method, session.deviceBinding))
      const [row] = await write(
        () =>
          rows<SessionRow>(
            `UPDATE sessions SET expires = COALESCE($2::timestamptz, expires), user_id = COALESCE($3::text, user_id),
               device_binding = COALESCE($4::jsonb, device_binding)
             WHERE session_token = $1::text
             RETURNING ${SESSION_COLUMNS}`,
            [sessionToken, expires, userId, binding],
          ),
        { foreignKey: unknownUser(method, userId ?? '') },
      )
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const [row] = await rows<SessionRow>(`DELETE FROM sessions WHERE session_token = $1::text RETURNING ${SESSION_COLUMNS}`, [
        sessionToken,
      ])
      return row ? toSession(row) : null
    },

    async deleteSessionsByUserId(userId) {
      await rows(`DELETE FROM sessions WHERE user_id = $1::text`, [userId])
    },

    async listSessionsByUserId(userId) {
      const found = await rows<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1::text ORDER BY created_at DESC NULLS LAST`, [userId])
      return found.map(toSession)
    },

    // ------------------------------------------------------------ verification tokens

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
            new AdapterError('DUPLICATE_VERIFICATION_TOKEN', `${method}: expected a new token, but this identifier already has it`),
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

    // ------------------------------------------------------------ authenticators

    async createAuthenticator(authenticator) {
      const method = 'createAuthenticator'
      const credentialID = requireString(method, 'credentialID', authenticator.credentialID)
      const userId = requireString(method, 'userId', authenticator.userId)
      const params = [
        credentialID,
        userId,
        requireString(method, 'providerAccountId', authenticator.providerAccountId),
        requireString(method, 'credentialPublicKey', authenticator.credentialPublicKey),
        requireCounter(method, authenticator.counter),
        requireString(method, 'credentialDeviceType', authenticator.credentialDeviceType),
        requireBoolean(method, 'credentialBackedUp', authenticator.credentialBackedUp),
        requireStringOrNull(method, 'transports', authenticator.transports ?? null),
        requireDateOrNull(method, 'createdAt', authenticator.createdAt ?? null),
      ]
      const [row] = await write(
        () =>
          rows<AuthenticatorRow>(
            `INSERT INTO authenticators (${AUTHENTICATOR_COLUMNS})
             VALUES ($1::text, $2::text, $3::text, $4::text, $5::bigint, $6::text, $7::boolean, $8::text, $9::timestamptz)
             RETURNING ${AUTHENTICATOR_COLUMNS}`,
            params,
          ),
        {
          unique: () =>
            new AdapterError('DUPLICATE_AUTHENTICATOR', `${method}: expected a new credential, but credential "${credentialID}" is already registered`),
          foreignKey: unknownUser(method, userId),
        },
      )
      return toAuthenticator(row!)
    },

    async getAuthenticator(credentialID) {
      const [row] = await rows<AuthenticatorRow>(`SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE credential_id = $1::text`, [
        credentialID,
      ])
      return row ? toAuthenticator(row) : null
    },

    async listAuthenticatorsByUserId(userId) {
      const list = await rows<AuthenticatorRow>(
        `SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE user_id = $1::text ORDER BY credential_id`,
        [userId],
      )
      return list.map(toAuthenticator)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const method = 'updateAuthenticatorCounter'
      const counter = requireCounter(method, newCounter)
      const [row] = await rows<AuthenticatorRow>(
        `UPDATE authenticators SET counter = $2::bigint WHERE credential_id = $1::text RETURNING ${AUTHENTICATOR_COLUMNS}`,
        [credentialID, counter],
      )
      if (!row) {
        throw new AdapterError('UNKNOWN_AUTHENTICATOR', `${method}: expected an existing credential, but "${credentialID}" is not registered`)
      }
      return toAuthenticator(row)
    },

    async deleteAuthenticator(credentialID) {
      const [row] = await rows<AuthenticatorRow>(
        `DELETE FROM authenticators WHERE credential_id = $1::text RETURNING ${AUTHENTICATOR_COLUMNS}`,
        [credentialID],
      )
      return row ? toAuthenticator(row) : null
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

/** A device binding as the server makes it: an id and a public JWK. */
function requireBinding(method: string, value: unknown): DeviceBinding {
  const binding = value as DeviceBinding
  if (typeof binding?.id !== 'string' || !binding.jwk || typeof binding.jwk !== 'object') {
    throw new AdapterError('INVALID_INPUT', `${method}: expected deviceBinding to be { id: string, jwk: object }, got ${describeValue(value)}`)
  }
  return { id: binding.id, jwk: binding.jwk }
}
