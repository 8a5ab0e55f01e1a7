/**
 * RFC 6238 written out for the tests, apart from the library the server uses (otpauth), so a
 * code the server accepts was made as the RFC says, not as that library does.
 */
import { createHmac } from 'node:crypto'

function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char)
    if (value < 0) throw new Error(`Not base32: ${char}`)
    bits += value.toString(2).padStart(5, '0')
  }
  const bytes = bits.match(/.{8}/g) ?? []
  return Buffer.from(bytes.map((b) => parseInt(b, 2)))
}

/** The 6-digit TOTP of `secret` (base32) at `at` (ms), 30-second steps, HMAC-SHA-1. */
export function totp(secret: string, at: number, step = Math.floor(at / 1000 / 30)): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac('sha1', base32(secret)).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000
  return String(value).padStart(6, '0')
}

/** The secret an `otpauth://` URI carries. */
export const secretOf = (uri: string) => new URL(uri).searchParams.get('secret')!
