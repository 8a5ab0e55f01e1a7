/** The SQL adapter's authenticators (passkeys). */
import { AdapterError } from '../errors.js'
import type { CompleteAdapter } from '../types.js'
import { requireBoolean, requireCounter, requireDateOrNull, requireString, requireStringOrNull } from '../validate.js'
import type { Rows } from './queryable.js'
import { AUTHENTICATOR_COLUMNS, toAuthenticator, type AuthenticatorRow } from './rows.js'
import { unknownUser, write } from './sql-errors.js'

export function authenticatorMethods(rows: Rows): Pick<CompleteAdapter, 'createAuthenticator' | 'getAuthenticator' | 'listAuthenticatorsByUserId' | 'updateAuthenticatorCounter' | 'updateAuthenticatorName' | 'deleteAuthenticator'> {
  return {
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
        requireStringOrNull(method, 'aaguid', authenticator.aaguid ?? null),
        requireStringOrNull(method, 'name', authenticator.name ?? null),
      ]
      const [row] = await write(
        () =>
          rows<AuthenticatorRow>(
            `INSERT INTO authenticators (${AUTHENTICATOR_COLUMNS})
             VALUES ($1::text, $2::text, $3::text, $4::text, $5::bigint, $6::text, $7::boolean, $8::text, $9::timestamptz, $10::text, $11::text)
             RETURNING ${AUTHENTICATOR_COLUMNS}`,
            params,
          ),
        {
          unique: () =>
            new AdapterError('DuplicateAuthenticator', `${method}: expected a new credential, but credential "${credentialID}" is already registered`),
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
        throw new AdapterError('UnknownAuthenticator', `${method}: expected an existing credential, but "${credentialID}" is not registered`)
      }
      return toAuthenticator(row)
    },

    async updateAuthenticatorName(credentialID, name) {
      const value = requireStringOrNull('updateAuthenticatorName', 'name', name)
      const [row] = await rows<AuthenticatorRow>(
        `UPDATE authenticators SET name = $2::text WHERE credential_id = $1::text RETURNING ${AUTHENTICATOR_COLUMNS}`,
        [credentialID, value],
      )
      return row ? toAuthenticator(row) : null
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
