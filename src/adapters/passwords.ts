/**
 * Password hashes as every adapter checks them. The server hashes; to an adapter a hash is text
 * (a PHC string), kept beside the user and never in the user record.
 */
import { AdapterError, describeValue } from './errors.js'

/** Far above any PHC string latchkey writes; a cap so a bad caller cannot store megabytes. */
export const maxPasswordHashLength = 1024

/** setPasswordHash's hash: a non-empty string of at most 1024 characters, or null (removes it). */
export function requirePasswordHash(method: string, hash: unknown): string | null {
  if (hash === null) return null
  if (typeof hash === 'string' && hash.length > 0 && hash.length <= maxPasswordHashLength) return hash
  const got = typeof hash === 'string' ? (hash.length === 0 ? 'an empty string' : `a string of ${hash.length} characters`) : describeValue(hash)
  throw new AdapterError('InvalidInput', `${method}: expected hash to be a non-empty string of at most ${maxPasswordHashLength} characters or null, got ${got}`)
}

/** The methods that keep password hashes; an adapter has both or keeps none. */
export const passwordMethods = ['getPasswordHash', 'setPasswordHash'] as const satisfies ReadonlyArray<keyof import('../core/types.js').Adapter>
