/** Encrypted tokens (JWE, dir + A256GCM) for the JWT session strategy and the short-lived check cookies. */
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose'
import { deriveKey } from './crypto.js'
import { openWithNode } from './jwe-node.js'

/**
 * Encrypts `payload` with a key derived from the first secret and `salt` (the cookie name,
 * so a token made for one cookie cannot be replayed in another). Times are in seconds.
 */
export async function seal(
  payload: Record<string, unknown>,
  secrets: string[],
  salt: string,
  times: { now: number; expires: number },
): Promise<string> {
  const key = await deriveKey(secrets[0], salt)
  return new EncryptJWT(payload as JWTPayload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(times.now)
    .setExpirationTime(times.expires)
    .encrypt(key)
}

/** An opened token's payload: the claims with the times `seal` set. */
export type Unsealed<T> = T & { exp: number; iat: number }

/**
 * Decrypts with each secret in turn; null when none opens it, it is malformed, or it has expired.
 * Synchronous for latchkey's own tokens on Node (node:crypto), a promise when jose must read it
 * (another form, or no node:crypto): await it either way, or skip the await on the session read.
 */
export function unseal<T = Record<string, unknown>>(token: string, secrets: string[], salt: string, nowSeconds: number): Unsealed<T> | null | Promise<Unsealed<T> | null> {
  for (const secret of secrets) {
    const fast = openWithNode(token, secret, salt, nowSeconds)
    if (fast) return fast as Unsealed<T>
    if (fast === undefined) return unsealWithJose<T>(token, secrets, salt, nowSeconds)
  }
  return null
}

/** jose's reading, for a token node:crypto left (another form, or no node:crypto). */
async function unsealWithJose<T>(token: string, secrets: string[], salt: string, nowSeconds: number): Promise<Unsealed<T> | null> {
  for (const secret of secrets) {
    try {
      const { payload } = await jwtDecrypt(token, await deriveKey(secret, salt), {
        currentDate: new Date(nowSeconds * 1000),
        clockTolerance: 0,
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      })
      return payload as Unsealed<T>
    } catch {
      // try the next secret
    }
  }
  return null
}
