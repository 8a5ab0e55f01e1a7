/** A password's length bounds, checked at start-up (apart from policy.ts's checks of a password, which load on first use). */
import { configurationError } from '../../../core/errors.js'

export interface PasswordLengths {
  minLength: number
  maxLength: number
}

/** 800-63B: at least 8, and the service must accept at least 64. */
const LEAST_MIN = 8
const LEAST_MAX = 64
export const DEFAULT_PASSWORD_LENGTHS: Readonly<PasswordLengths> = Object.freeze({ minLength: 8, maxLength: 128 })

/** The configured lengths, checked at start-up: a configuration error that says the fix. */
export function resolvePasswordLengths(min?: number, max?: number): PasswordLengths {
  const minLength = min ?? DEFAULT_PASSWORD_LENGTHS.minLength
  const maxLength = max ?? Math.max(DEFAULT_PASSWORD_LENGTHS.maxLength, minLength)
  if (!Number.isInteger(minLength) || minLength < LEAST_MIN) {
    throw configurationError(`password.minLength is ${String(min)}: NIST SP 800-63B asks for at least ${LEAST_MIN} characters. Set an integer of ${LEAST_MIN} or more, or leave it out for ${DEFAULT_PASSWORD_LENGTHS.minLength}.`)
  }
  if (!Number.isInteger(maxLength) || maxLength < LEAST_MAX) {
    throw configurationError(`password.maxLength is ${String(max)}: NIST SP 800-63B asks that passwords of at least ${LEAST_MAX} characters be accepted. Set an integer of ${LEAST_MAX} or more, or leave it out for ${DEFAULT_PASSWORD_LENGTHS.maxLength}.`)
  }
  if (minLength > maxLength) {
    throw configurationError(`password.minLength (${minLength}) is more than password.maxLength (${maxLength}): no password could pass. Lower minLength or raise maxLength.`)
  }
  return { minLength, maxLength }
}
