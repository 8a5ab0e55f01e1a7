/** The input of `updateAccount`, checked the same way by every adapter of ours. */
import type { AccountChanges } from '../core/types.js'
import { AdapterError, describeValue } from './errors.js'
import { requireString, requireStringOrNull } from './validate.js'

/** Text fields `updateAccount` may change, in the SQL adapter's parameter order. */
export const CHANGEABLE_TEXT = ['access_token', 'refresh_token', 'id_token', 'scope', 'token_type', 'refresh_error'] as const
/** Number fields `updateAccount` may change. */
export const CHANGEABLE_NUMBERS = ['expires_in', 'expires_at'] as const

type Field = (typeof CHANGEABLE_TEXT)[number] | (typeof CHANGEABLE_NUMBERS)[number]

export interface CheckedUpdate {
  provider: string
  providerAccountId: string
  /** Only the given fields; null clears one. */
  changes: Partial<Record<Field, string | number | null>>
  /** undefined: no compare; otherwise the refresh token (or null) the account must still hold. */
  ifRefreshToken: string | null | undefined
}

const method = 'updateAccount'
const known = new Set<string>(['provider', 'providerAccountId', ...CHANGEABLE_TEXT, ...CHANGEABLE_NUMBERS])

export function checkAccountUpdate(account: AccountChanges & { provider: string; providerAccountId: string }, options: { ifRefreshToken?: string | null } = {}): CheckedUpdate {
  const input = account as unknown as Record<string, unknown>
  const provider = requireString(method, 'provider', input.provider)
  const providerAccountId = requireString(method, 'providerAccountId', input.providerAccountId)
  for (const key of Object.keys(input)) {
    if (!known.has(key)) {
      throw new AdapterError('InvalidInput', `${method}: expected only token fields (${[...CHANGEABLE_TEXT, ...CHANGEABLE_NUMBERS].join(', ')}), got "${key}"`)
    }
  }
  const changes: CheckedUpdate['changes'] = {}
  for (const field of CHANGEABLE_TEXT) {
    if (input[field] !== undefined) changes[field] = requireStringOrNull(method, field, input[field])
  }
  for (const field of CHANGEABLE_NUMBERS) {
    const value = input[field]
    if (value === undefined) continue
    if (value !== null && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a finite number or null, got ${describeValue(value)}`)
    }
    changes[field] = value
  }
  const ifRefreshToken = options.ifRefreshToken === undefined ? undefined : requireStringOrNull(method, 'ifRefreshToken', options.ifRefreshToken)
  return { provider, providerAccountId, changes, ifRefreshToken }
}
