/**
 * Recovery codes: shown once, stored as HMACs under the secret, each good for one sign-in. A new
 * set replaces the old one whole. `xxxxx-xxxxx` over an alphabet without look-alikes: 50 bits each.
 */
import type { Context } from '../../kernel/context.js'
import { hmacHex } from '../../kernel/crypto.js'

const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'

function newCode(): string {
  const chars: string[] = []
  const limit = 256 - (256 % alphabet.length)
  while (chars.length < 10) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) if (byte < limit && chars.length < 10) chars.push(alphabet[byte % alphabet.length]!)
  }
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

/** As typed: lower case, no spaces; the dash optional. */
export function normalizeRecoveryCode(input: string): string {
  const plain = input.toLowerCase().replace(/[\s-]/g, '')
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain
}

export const hashRecoveryCode = (secret: string, userId: string, code: string) => hmacHex(secret, `recovery|${userId}|${code}`)

/** Makes `count` codes for the user, stores their hashes in place of the old set, and answers them. */
export async function newRecoveryCodes(ctx: Context, userId: string, count: number, store: (userId: string, hashes: string[]) => unknown): Promise<string[]> {
  const codes = Array.from({ length: count }, newCode)
  await store(userId, await Promise.all(codes.map((code) => hashRecoveryCode(ctx.config.secrets[0], userId, code))))
  return codes
}
