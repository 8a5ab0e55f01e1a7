/**
 * What the store keeps of a session token: the cookie carries the random token, the adapter is
 * only ever given its SHA-256, as 64 lowercase hex digits, so a read of the sessions table gives
 * no cookie. No secret goes in: the token is 32 random bytes, which a plain hash protects, and a
 * secret would tie every session to one secret (rotation would sign everyone out) and keep the
 * database's own migration from computing the same value. Migration 4 of the SQL adapter hashed
 * the rows written in clear with `encode(sha256(convert_to(session_token, 'UTF8')), 'hex')`,
 * which is exactly this function.
 */
import { sha256Hex } from './crypto.js'
import { nodeCrypto } from './node-crypto.js'

/** node's one-shot hash (20.12+), which makes no Hash object per call; else a Hash object. */
const hashNow: ((token: string) => string) | undefined = nodeCrypto
  ? typeof nodeCrypto.hash === 'function'
    ? (token) => nodeCrypto!.hash('sha256', token, 'hex')
    : (token) => nodeCrypto!.createHash('sha256').update(token, 'utf8').digest('hex')
  : undefined

/** The stored form of a session cookie's token. Synchronous on Node; await it either way. */
export function storedSessionToken(token: string): string | Promise<string> {
  return hashNow ? hashNow(token) : sha256Hex(token)
}

/**
 * How the cookie of a session taken over from another library (features/authjs-migration) begins:
 * signed in elsewhere, it is never fresh and claims no factor here, whatever the adapter's row
 * says (Auth.js's Prisma schema gives sessions a `createdAt` of their own). A latchkey cookie
 * (base64url) never has a dot; a custom `generateSessionToken` that made one would only lose
 * freshness.
 */
export const takenOverPrefix = 'authjs.'
