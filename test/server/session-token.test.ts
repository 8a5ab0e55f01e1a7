import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/server/kernel/crypto.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'

describe('the stored form of a session token', () => {
  // A generated token is base64url; generateSessionToken may give any string, so UTF-8 counts.
  for (const token of ['kT9v0xQ2mZ_8sLr-4bN1aWcYdEfGhJiKlMnOpQrStUv', 'jeton-été-🔑']) {
    it(`is the SHA-256 of the token's UTF-8 bytes, as 64 lowercase hex digits, on node:crypto and on Web Crypto alike (${token})`, async () => {
      const expected = createHash('sha256').update(Buffer.from(token, 'utf8')).digest('hex')
      expect(await storedSessionToken(token)).toBe(expected)
      expect(await sha256Hex(token)).toBe(expected)
      expect(expected).toMatch(/^[0-9a-f]{64}$/)
    })
  }
})
