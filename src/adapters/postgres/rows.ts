/**
 * Conversions between the contract's records and table rows. Drivers differ in how they return
 * bigint (string, bigint or number) and jsonb (parsed or text), so every read goes through here.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterFactor, AdapterSession, AdapterUser, DeviceBinding, VerificationToken } from '../../core/types.js'
import { AdapterError, describeValue } from '../errors.js'

export const USER_COLUMNS = 'id, email, email_verified, name, image'
export const ACCOUNT_COLUMNS =
  'user_id, type, provider, provider_account_id, access_token, refresh_token, id_token, scope, token_type, refresh_error, expires_in, expires_at, extra'
export const SESSION_COLUMNS = 'session_token, user_id, expires, device_binding, created_at, user_agent, sign_in_provider, amr'
export const TOKEN_COLUMNS = 'identifier, token, expires'
export const AUTHENTICATOR_COLUMNS =
  'credential_id, user_id, provider_account_id, credential_public_key, counter, credential_device_type, credential_backed_up, transports, created_at, aaguid, name'
export const FACTOR_COLUMNS = 'id, user_id, type, secret, label, confirmed_at, created_at, last_used_step'

export interface UserRow {
  id: string
  email: string
  email_verified: Date | string | null
  name: string | null
  image: string | null
}

export interface AccountRow {
  user_id: string
  type: string
  provider: string
  provider_account_id: string
  access_token: string | null
  refresh_token: string | null
  id_token: string | null
  scope: string | null
  token_type: string | null
  expires_in: number | string | null
  expires_at: number | string | null
  extra: Record<string, unknown> | string | null
  refresh_error: string | null
}

export interface SessionRow {
  session_token: string
  user_id: string
  expires: Date | string
  device_binding?: DeviceBinding | string | null
  created_at?: Date | string | null
  user_agent?: string | null
  sign_in_provider?: string | null
  amr?: string | null
  /** getSessionAndUser only: whether one of the user's accounts is marked refresh_error. */
  refresh_error?: boolean
}

export interface TokenRow {
  identifier: string
  token: string
  expires: Date | string
}

export interface AuthenticatorRow {
  credential_id: string
  user_id: string
  provider_account_id: string
  credential_public_key: string
  counter: number | string | bigint
  credential_device_type: string
  credential_backed_up: boolean
  transports: string | null
  created_at: Date | string | null
  aaguid: string | null
  name: string | null
}

export interface FactorRow {
  id: string
  user_id: string
  type: string
  secret: string
  label: string | null
  confirmed_at: Date | string | null
  created_at: Date | string
  last_used_step: number | string | bigint | null
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value)
}

export function toUser(row: UserRow): AdapterUser {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified === null ? null : toDate(row.email_verified),
    name: row.name,
    image: row.image,
  }
}

export function toSession(row: SessionRow): AdapterSession {
  const session: AdapterSession = { sessionToken: row.session_token, userId: row.user_id, expires: toDate(row.expires) }
  if (row.device_binding) session.deviceBinding = typeof row.device_binding === 'string' ? (JSON.parse(row.device_binding) as DeviceBinding) : row.device_binding
  if (row.created_at) session.createdAt = toDate(row.created_at)
  if (row.user_agent) session.userAgent = row.user_agent
  if (row.sign_in_provider) session.signInProvider = row.sign_in_provider
  if (row.amr) session.amr = row.amr.split(' ')
  if (row.refresh_error === true) session.refreshError = true
  return session
}

export function toVerificationToken(row: TokenRow): VerificationToken {
  return { identifier: row.identifier, token: row.token, expires: toDate(row.expires) }
}

export function toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    credentialID: row.credential_id,
    userId: row.user_id,
    providerAccountId: row.provider_account_id,
    credentialPublicKey: row.credential_public_key,
    counter: Number(row.counter),
    credentialDeviceType: row.credential_device_type,
    credentialBackedUp: row.credential_backed_up,
    transports: row.transports,
    // Absent, not null, where it was never kept: the record then reads back as it was written.
    ...(row.created_at !== null && { createdAt: toDate(row.created_at) }),
    ...(row.aaguid !== null && { aaguid: row.aaguid }),
    ...(row.name !== null && { name: row.name }),
  }
}

/** Account fields with a column of their own; anything else goes to the `extra` jsonb column. */
const STRING_FIELDS = ['access_token', 'refresh_token', 'id_token', 'scope', 'token_type', 'refresh_error'] as const
const NUMBER_FIELDS = ['expires_in', 'expires_at'] as const
const IDENTITY_FIELDS = ['userId', 'type', 'provider', 'providerAccountId'] as const
const COLUMN_FIELDS = new Set<string>([...STRING_FIELDS, ...NUMBER_FIELDS, ...IDENTITY_FIELDS])

export function toAccount(row: AccountRow): AdapterAccount {
  const account: Record<string, unknown> = {
    userId: row.user_id,
    type: row.type,
    provider: row.provider,
    providerAccountId: row.provider_account_id,
  }
  for (const field of STRING_FIELDS) if (row[field] !== null) account[field] = row[field]
  for (const field of NUMBER_FIELDS) if (row[field] !== null) account[field] = Number(row[field])
  const extra = typeof row.extra === 'string' ? (JSON.parse(row.extra) as Record<string, unknown>) : (row.extra ?? {})
  return { ...extra, ...account } as AdapterAccount
}

/** The parameters for the account columns, in ACCOUNT_COLUMNS order. */
export function accountParams(account: AdapterAccount): unknown[] {
  const strings = STRING_FIELDS.map((field) => {
    const value = account[field]
    if (value === undefined || value === null || typeof value === 'string') return value ?? null
    throw new AdapterError('InvalidInput', `linkAccount: expected ${field} to be a string, got ${describeValue(value)}`)
  })
  const numbers = NUMBER_FIELDS.map((field) => {
    const value = account[field]
    if (value === undefined || value === null) return null
    if (typeof value === 'number' && Number.isFinite(value)) return value
    throw new AdapterError('InvalidInput', `linkAccount: expected ${field} to be a finite number, got ${describeValue(value)}`)
  })
  const extra: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(account)) {
    if (!COLUMN_FIELDS.has(key) && value !== undefined) extra[key] = value
  }
  return [account.userId, account.type, account.provider, account.providerAccountId, ...strings, ...numbers, JSON.stringify(extra)]
}

export function toFactor(row: FactorRow): AdapterFactor {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type as AdapterFactor['type'],
    secret: row.secret,
    confirmedAt: row.confirmed_at === null ? null : toDate(row.confirmed_at),
    createdAt: toDate(row.created_at),
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
    label: row.label,
  }
}
