/** Random values, hashes and derived keys, on Web Crypto. */
import { toBase64Url, toHex } from '../../core/encoding.js'

const encoder = new TextEncoder()

/** `bytes` random bytes as base64url. */
export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)))
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
}

const hmacKeys = new Map<string, Promise<CryptoKey>>()

/** HMAC-SHA-256 of `message` under `secret`, hex. Keys are imported once per secret. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  let key = hmacKeys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    hmacKeys.set(secret, key)
  }
  return toHex(await crypto.subtle.sign('HMAC', await key, encoder.encode(message)))
}

const derivedKeys = new Map<string, Promise<CryptoKey>>()

/**
 * An AES-256-GCM key from HKDF-SHA-256 over the secret; `salt` separates uses.
 * Derived and imported once per pair: importing on every request costs more than the decryption.
 */
export function deriveKey(secret: string, salt: string): Promise<CryptoKey> {
  const id = `${salt}\u0000${secret}`
  let key = derivedKeys.get(id)
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      return crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(salt), info: encoder.encode(`latchkey key (${salt})`) },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      )
    })()
    derivedKeys.set(id, key)
  }
  return key
}

/** Compares two strings in time that depends only on their length. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
