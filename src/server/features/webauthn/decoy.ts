/**
 * Stand-in credentials for an address that has no passkeys (no account, or a user without any), so
 * sign-in options asked with an email do not tell whether the address has an account (WebAuthn
 * §14.6.2, username enumeration). They are derived from the normalised address by HMAC under the
 * secret, so every request for one address gets the same list, and they are drawn to look like a
 * real user's: mostly one credential, sometimes two or three, each with the id length and transports
 * of a common kind of authenticator. The provider id is not mixed in: a user's real list is the same
 * from every WebAuthn provider.
 * Limit: rotating the first secret changes every stand-in list, while real lists stay.
 */
import { hmacHex } from '../../kernel/crypto.js'
import { toBase64Url } from '../../../core/encoding.js'

/** As `allowCredentials` lists a stored credential. */
export interface Descriptor {
  id: string
  transports?: string[]
}

/** Kinds of authenticator, by share in 256: phones, Apple's keychain, Windows Hello, security keys, password managers. */
const kinds = [
  { bytes: 65, transports: ['hybrid', 'internal'], weight: 90 },
  { bytes: 20, transports: ['hybrid', 'internal'], weight: 77 },
  { bytes: 32, transports: ['internal'], weight: 51 },
  { bytes: 64, transports: ['nfc', 'usb'], weight: 25 },
  { bytes: 16, transports: ['internal'], weight: 13 },
]

/** How many credentials, by share in 256: one for most people, more for a few. */
const counts = [
  { count: 1, weight: 205 },
  { count: 2, weight: 38 },
  { count: 3, weight: 13 },
]

export async function decoyCredentials(secret: string, email: string): Promise<Descriptor[]> {
  const bytes = await stream(secret, email, 4 + 3 * 65)
  let at = 4
  return Array.from({ length: byWeight(counts, bytes[0]).count }, (_, i) => {
    const kind = byWeight(kinds, bytes[1 + i])
    const id = toBase64Url(bytes.subarray(at, (at += kind.bytes)))
    return { id, transports: [...kind.transports] }
  })
}

/** The row whose share of 0..255 holds `byte`. */
function byWeight<T extends { weight: number }>(rows: T[], byte: number): T {
  for (const row of rows) {
    if (byte < row.weight) return row
    byte -= row.weight
  }
  return rows[rows.length - 1]
}

/** `length` bytes of HMAC output in counter blocks, all from the address. */
async function stream(secret: string, email: string, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(Math.ceil(length / 32) * 32)
  for (let block = 0; block * 32 < length; block++) {
    const hex = await hmacHex(secret, `webauthn-decoy:${block}:${email}`)
    for (let i = 0; i < 32; i++) out[block * 32 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  }
  return out
}
