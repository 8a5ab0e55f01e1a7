/**
 * Opening Auth.js's JWT session cookies, as Auth.js derives their keys: JWE `dir`, with a key from
 * HKDF-SHA-256 over the secret. next-auth 5 / `@auth/core`: `A256CBC-HS512`, a 64-byte key, the
 * cookie's name as the salt and `Auth.js Generated Encryption Key (<name>)` as the info.
 * next-auth 4: `A256GCM`, a 32-byte key, no salt and `NextAuth.js Generated Encryption Key`.
 * Only that one algorithm per generation, and no clock tolerance: as strict as latchkey's own.
 */
import { jwtDecrypt } from 'jose'
import type { OldCookie } from './cookies.js'

const encoder = new TextEncoder()
const keys = new Map<string, Promise<Uint8Array>>()

function keyFor(secret: string, cookie: OldCookie): Promise<Uint8Array> {
  const v5 = cookie.generation === 'v5'
  const salt = v5 ? cookie.name : ''
  const id = `${cookie.generation}\u0000${salt}\u0000${secret}`
  let key = keys.get(id)
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits'])
      const info = v5 ? `Auth.js Generated Encryption Key (${salt})` : 'NextAuth.js Generated Encryption Key'
      const bits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(salt), info: encoder.encode(info) }, base, v5 ? 512 : 256)
      return new Uint8Array(bits)
    })()
    keys.set(id, key)
  }
  return key
}

/** The token's claims, or null when no secret opens it, it was changed, or it has expired at `now` (ms). */
export async function openOldToken(cookie: OldCookie, secrets: string[], now: number): Promise<(Record<string, unknown> & { exp: number }) | null> {
  for (const secret of secrets) {
    try {
      const { payload } = await jwtDecrypt(cookie.value, await keyFor(secret, cookie), {
        currentDate: new Date(now),
        clockTolerance: 0,
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: [cookie.generation === 'v5' ? 'A256CBC-HS512' : 'A256GCM'],
      })
      // Auth.js always sets exp; a token without one has no expiry to keep.
      return typeof payload.exp === 'number' ? (payload as Record<string, unknown> & { exp: number }) : null
    } catch {
      // the next secret
    }
  }
  return null
}
