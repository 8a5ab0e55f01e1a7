/**
 * Sealing with the server's secret (AES-256-GCM, a key derived per use through latchkey/server's
 * `deriveKey`): the OIDC client secret at rest, and the flow values that travel in a cookie or a
 * URL. `use` separates the keys, so a value sealed for one use never opens as another. Sealed with
 * the first secret, opened with any (secret rotation).
 */
import { deriveKey, type Context } from 'latchkey/server'

const encoder = new TextEncoder()

function b64url(bytes: Uint8Array): string {
  let text = ''
  for (const b of bytes) text += String.fromCharCode(b)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  const plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const out = new Uint8Array(plain.length)
  for (let i = 0; i < plain.length; i++) out[i] = plain.charCodeAt(i)
  return out
}

const key = (secret: string, use: string) => deriveKey(secret, `latchkey sso ${use}`) as Promise<CryptoKey>

export async function seal(secrets: readonly string[], use: string, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key(secrets[0]!, use), encoder.encode(JSON.stringify(value)))
  return `${b64url(iv)}.${b64url(new Uint8Array(data))}`
}

/** The sealed value, or null where it is not one this server sealed for `use`. */
export async function unseal<T>(secrets: readonly string[], use: string, sealed: unknown): Promise<T | null> {
  if (typeof sealed !== 'string' || sealed.length > 16_384) return null
  const [ivText, dataText, extra] = sealed.split('.')
  const iv = ivText ? fromB64url(ivText) : null
  const data = dataText ? fromB64url(dataText) : null
  if (!iv || !data || iv.length !== 12 || extra !== undefined) return null
  for (const secret of secrets) {
    try {
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await key(secret, use), data)
      return JSON.parse(new TextDecoder().decode(plain)) as T
    } catch {
      // another secret, or not ours
    }
  }
  return null
}

/** A sealed value with an expiry, for the flow: null once `exp` (ms) has passed. */
export async function sealFor(ctx: Context, use: string, value: object, seconds: number): Promise<string> {
  return seal(ctx.config.secrets, use, { ...value, exp: ctx.now + seconds * 1000 })
}

export async function unsealFresh<T extends object>(ctx: Context, use: string, sealed: unknown): Promise<T | null> {
  const value = await unseal<T & { exp?: number }>(ctx.config.secrets, use, sealed)
  return value && typeof value.exp === 'number' && value.exp > ctx.now ? value : null
}
