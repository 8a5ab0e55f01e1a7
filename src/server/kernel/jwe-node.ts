/**
 * Opening latchkey's own JWE (dir + A256GCM, compact) with node:crypto's synchronous AES-GCM: the
 * same key (HKDF-SHA-256 over the secret, the cookie name as salt), the same checks as jose's
 * `jwtDecrypt` with `clockTolerance: 0`, at a few microseconds instead of Web Crypto's tens.
 * Anything but the exact header latchkey writes goes to jose (`undefined`), so the slow path
 * stays the judge of every unusual token.
 */
import { nodeCrypto } from './node-crypto.js'

/** The protected header `seal` writes, base64url: {"alg":"dir","enc":"A256GCM"}. */
const ourHeader = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0'
/** The additional authenticated data: the protected header as ASCII, the same bytes for every token. */
const ourAad = nodeCrypto ? Buffer.from(ourHeader, 'ascii') : undefined
const decoder = new TextDecoder('utf-8', { fatal: true })
const base64url = /^[A-Za-z0-9_-]+$/

/** Strict base64url: Buffer's decoder skips characters outside the alphabet, jose's refuses them. */
function bytes(text: string): Buffer {
  if (!base64url.test(text)) throw new TypeError('not base64url')
  return Buffer.from(text, 'base64url')
}
const rawKeys = new Map<string, import('node:crypto').KeyObject>()

/** The last key asked for: a session read asks for the same one every time, without building the map's key. */
let last: { secret: string; salt: string; key: import('node:crypto').KeyObject } | undefined

/** The AES-256 key `deriveKey` (crypto.ts) makes, as bytes: HKDF is the same on both sides. */
function rawKey(secret: string, salt: string): import('node:crypto').KeyObject {
  if (last && last.secret === secret && last.salt === salt) return last.key
  const id = `${salt}\u0000${secret}`
  let key = rawKeys.get(id)
  if (!key) {
    key = nodeCrypto!.createSecretKey(Buffer.from(nodeCrypto!.hkdfSync('sha256', secret, salt, `latchkey key (${salt})`, 32)))
    rawKeys.set(id, key)
  }
  last = { secret, salt, key }
  return key
}

/**
 * The payload, `null` when this secret does not open it or a claim fails (as jose would throw),
 * `undefined` when node:crypto is missing or the token is not in latchkey's exact form.
 */
export function openWithNode(token: string, secret: string, salt: string, nowSeconds: number): Record<string, unknown> | null | undefined {
  if (!nodeCrypto) return undefined
  const parts = token.split('.')
  if (parts.length !== 5 || parts[0] !== ourHeader || parts[1] !== '') return undefined
  let payload: unknown
  try {
    const iv = bytes(parts[2])
    const tag = bytes(parts[4])
    if (iv.length !== 12 || tag.length !== 16) return null
    const decipher = nodeCrypto.createDecipheriv('aes-256-gcm', rawKey(secret, salt), iv, { authTagLength: 16 })
    decipher.setAAD(ourAad!)
    decipher.setAuthTag(tag)
    // GCM is a stream mode: update gives every byte, final only checks the tag (and throws when it fails).
    const plain = decipher.update(bytes(parts[3]))
    decipher.final()
    payload = JSON.parse(decoder.decode(plain))
  } catch {
    return null
  }
  return validClaims(payload, nowSeconds) ? (payload as Record<string, unknown>) : null
}

/** jose's JWT claim checks with no tolerance: an object; `exp` a number after now; `nbf`, `iat` numbers, `nbf` not after now. */
function validClaims(payload: unknown, now: number): boolean {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false
  const { exp, nbf, iat } = payload as { exp?: unknown; nbf?: unknown; iat?: unknown }
  if (iat !== undefined && typeof iat !== 'number') return false
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return false
  if (exp !== undefined && (typeof exp !== 'number' || exp <= now)) return false
  return true
}
