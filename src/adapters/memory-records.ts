/**
 * The memory adapter's records: the fields each kind keeps, the copies handed in and out (so a
 * caller never shares an object with the store), and the keys of its maps.
 */
import type { AdapterAuthenticator, AdapterUser } from '../core/types.js'

/** A deep copy without `undefined` keys, so a stored record and a returned one never share objects. */
export function copy<T extends object>(record: T): T {
  const out: Record<string, unknown> = {}
  for (const key in record) {
    const value: unknown = record[key]
    if (value === undefined) continue
    // Strings, numbers, booleans and null are values already; only objects need a clone.
    out[key] = value === null || typeof value !== 'object' ? value : value instanceof Date ? new Date(value.getTime()) : structuredClone(value)
  }
  return out as T
}

/** The given fields only: `{ name: undefined }` in an update means "not given", as in the SQL adapter. */
export function given<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>
}

/** The user fields the contract defines; the SQL adapter has a column for each and nothing else. */
export function userRecord(user: AdapterUser): AdapterUser {
  const { id, email, emailVerified, name, image } = user
  return copy({ id, email, emailVerified, name, image })
}

export function authenticatorRecord(a: AdapterAuthenticator): AdapterAuthenticator {
  const { credentialID, credentialPublicKey, userId, providerAccountId, counter, credentialDeviceType, credentialBackedUp, transports, createdAt, aaguid, name } = a
  return copy({
    credentialID, credentialPublicKey, userId, providerAccountId, counter, credentialDeviceType, credentialBackedUp, transports, createdAt: createdAt ?? undefined,
    // Absent where never given, so a record reads back as it was written.
    ...(aaguid != null && { aaguid }),
    ...(name != null && { name }),
  })
}

export const accountKey = (provider: string, providerAccountId: string) => JSON.stringify([provider, providerAccountId])
export const tokenKey = (identifier: string, token: string) => JSON.stringify([identifier, token])
