/** The SQL adapter's sessions: read with their user in one join; a device binding kept as JSON. */
import type { DeviceBinding } from '../../core/types.js'
import { AdapterError, describeValue } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import { requireAmr, requireDate, requireString } from '../validate.js'
import type { Rows } from './queryable.js'
import { SESSION_COLUMNS, toSession, toUser, type SessionRow, type UserRow } from './rows.js'
import { unknownUser, write } from './sql-errors.js'

/** A plugin whose schema reads with the session (`PluginSchema.sessionRead`): its id and SQL expression. */
export interface SessionReadPart {
  id: string
  sql: string
}

export function sessionMethods(rows: Rows, reads: readonly SessionReadPart[] = []): Pick<CompleteAdapter, 'createSession' | 'getSessionAndUser' | 'updateSession' | 'deleteSession' | 'replaceSessionToken' | 'deleteSessionsByUserId' | 'listSessionsByUserId'> {
  // Each plugin's expression as text (so every driver hands back the same string), parsed here.
  const pluginColumns = reads.map((read, i) => `,\n           (${read.sql})::text AS plugin_read_${i}`).join('')
  const pluginData = (row: Record<string, unknown>) => {
    const data: Record<string, unknown> = {}
    reads.forEach((read, i) => {
      const value = row[`plugin_read_${i}`]
      data[read.id] = typeof value === 'string' ? JSON.parse(value) : null
    })
    return data
  }
  return {
    async createSession(session) {
      const method = 'createSession'
      const sessionToken = requireString(method, 'sessionToken', session.sessionToken)
      const userId = requireString(method, 'userId', session.userId)
      const expires = requireDate(method, 'expires', session.expires)
      const createdAt = session.createdAt === undefined ? null : requireDate(method, 'createdAt', session.createdAt)
      const userAgent = session.userAgent == null ? null : requireString(method, 'userAgent', session.userAgent)
      const signInProvider = session.signInProvider == null ? null : requireString(method, 'signInProvider', session.signInProvider)
      const amr = session.amr == null ? null : requireAmr(method, session.amr).join(' ')
      const [row] = await write(
        () =>
          rows<SessionRow>(
            `INSERT INTO sessions (session_token, user_id, expires, created_at, user_agent, sign_in_provider, amr)
             VALUES ($1::text, $2::text, $3::timestamptz, $4::timestamptz, $5::text, $6::text, $7::text)
             RETURNING ${SESSION_COLUMNS}`,
            [sessionToken, userId, expires, createdAt, userAgent, signInProvider, amr],
          ),
        {
          unique: () => new AdapterError('DuplicateSession', `${method}: expected a new session token, but this one is already in use`),
          foreignKey: unknownUser(method, userId),
        },
      )
      return toSession(row!)
    },

    async getSessionAndUser(sessionToken) {
      // One round trip: the session and its user in a join, and what the plugins read with them.
      const [row] = await rows<SessionRow & UserRow & Record<string, unknown>>(
        `SELECT s.session_token, s.user_id, s.expires, s.device_binding, s.created_at, s.user_agent, s.sign_in_provider, s.amr, u.id, u.email, u.email_verified, u.name, u.image,
           EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = s.user_id AND a.refresh_error IS NOT NULL) AS refresh_error${pluginColumns}
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.session_token = $1::text`,
        [sessionToken],
      )
      if (!row) return null
      const session = toSession(row)
      if (reads.length) session.pluginData = pluginData(row)
      return { session, user: toUser(row) }
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

    async replaceSessionToken(from, to) {
      const method = 'replaceSessionToken'
      // One statement: of two servers moving the same row, the second finds no row with \`from\`.
      const [row] = await write(
        () =>
          rows<SessionRow>(`UPDATE sessions SET session_token = $2::text WHERE session_token = $1::text RETURNING ${SESSION_COLUMNS}`, [
            requireString(method, 'from', from),
            requireString(method, 'to', to),
          ]),
        { unique: () => new AdapterError('DuplicateSession', `${method}: expected a new session token, but this one is already in use`) },
      )
      return row ? toSession(row) : null
    },

    async deleteSessionsByUserId(userId) {
      await rows(`DELETE FROM sessions WHERE user_id = $1::text`, [userId])
    },

    async listSessionsByUserId(userId) {
      const found = await rows<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1::text ORDER BY created_at DESC NULLS LAST`, [userId])
      return found.map(toSession)
    },
  }
}

/** A device binding as the server makes it: an id and a public JWK. */
function requireBinding(method: string, value: unknown): DeviceBinding {
  const binding = value as DeviceBinding
  if (typeof binding?.id !== 'string' || !binding.jwk || typeof binding.jwk !== 'object') {
    throw new AdapterError('InvalidInput', `${method}: expected deviceBinding to be { id: string, jwk: object }, got ${describeValue(value)}`)
  }
  return { id: binding.id, jwk: binding.jwk }
}
