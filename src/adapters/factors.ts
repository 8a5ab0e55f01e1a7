/**
 * Second factors as every adapter checks them: a factor record, a TOTP time step and a set of
 * recovery-code hashes. The server seals secrets and hashes codes; to an adapter they are text.
 */
import type { AdapterFactor } from '../core/types.js'
import { AdapterError, describeValue } from './errors.js'
import { requireDate, requireDateOrNull, requireString, requireStringOrNull } from './validate.js'

const factorTypes: unknown[] = ['totp', 'device'] satisfies AdapterFactor['type'][]

/** createFactor's record, checked; an absent confirmedAt, lastUsedStep or label reads as null. */
export function requireFactor(method: string, factor: AdapterFactor): AdapterFactor {
  if (!factorTypes.includes(factor?.type)) {
    throw new AdapterError('InvalidInput', `${method}: expected type to be 'totp' or 'device', got ${typeof factor?.type === 'string' ? `'${factor.type}'` : describeValue(factor?.type)}`)
  }
  return {
    id: requireString(method, 'id', factor.id),
    userId: requireString(method, 'userId', factor.userId),
    type: factor.type,
    secret: requireString(method, 'secret', factor.secret),
    confirmedAt: requireDateOrNull(method, 'confirmedAt', factor.confirmedAt ?? null),
    createdAt: requireDate(method, 'createdAt', factor.createdAt),
    lastUsedStep: factor.lastUsedStep == null ? null : requireStep(method, 'lastUsedStep', factor.lastUsedStep),
    label: requireStringOrNull(method, 'label', factor.label ?? null),
  }
}

/** A TOTP time step: a whole number >= 0 (seconds since 1970 over the period), stored as bigint. */
export function requireStep(method: string, field: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  throw new AdapterError('InvalidInput', `${method}: expected ${field} to be a whole number >= 0, got ${typeof value === 'number' ? value : describeValue(value)}`)
}

/** replaceRecoveryCodes' set: an array of distinct non-empty strings, possibly empty. */
export function requireRecoveryCodes(method: string, codes: unknown): string[] {
  if (!Array.isArray(codes)) throw new AdapterError('InvalidInput', `${method}: expected codes to be an array of strings, got ${describeValue(codes)}`)
  codes.forEach((code, i) => requireString(method, `codes[${i}]`, code))
  if (new Set(codes).size !== codes.length) throw new AdapterError('InvalidInput', `${method}: expected codes to be distinct, got the same code twice`)
  return codes as string[]
}

/** The methods that keep second factors; an adapter has all of them or keeps none. */
export const factorMethods = [
  'createFactor',
  'listFactorsByUserId',
  'confirmFactor',
  'useFactorStep',
  'deleteFactor',
  'replaceRecoveryCodes',
  'useRecoveryCode',
  'countRecoveryCodes',
] as const satisfies ReadonlyArray<keyof import('../core/types.js').Adapter>
