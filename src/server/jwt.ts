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
 * The payload, or null, when node:crypto settles it for every secret without jose: the session
 * read's synchronous path. `undefined` when some secret needs jose (`unseal` then awaits).
 */
export function unsealNow<T = Record<string, unknown>>(token: string, secrets: string[], salt: string, nowSeconds: number): Unsealed<T> | null | undefined {
  for (const secret of secrets) {
    const fast = openWithNode(token, secret, salt, nowSeconds)
    if (fast) return fast as Unsealed<T>
    if (fast === undefined) return undefined
  }
  return null
}

/** Decrypts with each secret in turn; null when none opens it, it is malformed, or it has expired. */
export async function unseal<T = Record<string, unknown>>(token: string, secrets: string[], salt: string, nowSeconds: number): Promise<Unsealed<T> | null> {
  // node:crypto opens latchkey's own tokens synchronously; any other form goes to jose.
  const opened = unsealNow<T>(token, secrets, salt, nowSeconds)
  return opened !== undefined ? opened : unsealWithJose<T>(token, secrets, salt, nowSeconds)
}

/** jose's reading, for a token `unsealNow` left undefined (another form, or no node:crypto). */
export async function unsealWithJose<T = Record<string, unknown>>(token: string, secrets: string[], salt: string, nowSeconds: number): Promise<Unsealed<T> | null> {
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
