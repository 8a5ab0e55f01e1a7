/**
 * The node:crypto path for latchkey's JWT sessions (src/server/kernel/jwe-node.ts) against jose, its
 * judge: the same answer for good tokens, expiry at the boundary, other secrets, and every single
 * character changed in a token; any header but latchkey's own goes to jose.
 */
import { EncryptJWT, jwtDecrypt } from 'jose'
import { describe, expect, it } from 'vitest'
import { deriveKey } from '../../src/server/kernel/crypto.js'
import { openWithNode } from '../../src/server/kernel/jwe-node.js'
import { seal, unseal } from '../../src/server/kernel/jwt.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/index.js'

const secret = 'jwe-node-test-secret-0123456789abcdef'
const salt = 'latchkey.session-token'
const now = 1_900_000_000
const payload = { sub: 'user-1', name: 'Zoë', email: 'z@example.com', picture: null, n: [1, 2] }

async function viaJose(token: string, at: number, key = secret): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtDecrypt(token, await deriveKey(key, salt), { currentDate: new Date(at * 1000), clockTolerance: 0, keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] })
    return payload as Record<string, unknown>
  } catch {
    return null
  }
}

describe('openWithNode', () => {
  it('opens what seal makes, exactly as jose does, until exp (exp itself is expired)', async () => {
    const token = await seal(payload, [secret], salt, { now, expires: now + 60 })
    expect(openWithNode(token, secret, salt, now)).toEqual(await viaJose(token, now))
    expect(openWithNode(token, secret, salt, now)).toMatchObject({ ...payload, iat: now, exp: now + 60 })
    expect(openWithNode(token, secret, salt, now + 59)).not.toBeNull()
    expect(openWithNode(token, secret, salt, now + 60)).toBeNull()
    expect(await viaJose(token, now + 60)).toBeNull()
  })

  it('another secret or another cookie name (salt) does not open it', async () => {
    const token = await seal(payload, [secret], salt, { now, expires: now + 60 })
    expect(openWithNode(token, 'another-secret-0123456789abcdef-xyz', salt, now)).toBeNull()
    expect(openWithNode(token, secret, 'latchkey.other', now)).toBeNull()
    // unseal still tries every secret in turn: rotation keeps old tokens readable.
    expect(await unseal(token, ['new-secret-0123456789abcdef-0123456', secret], salt, now)).toMatchObject({ sub: 'user-1' })
  })

  it('every single character changed gives the same verdict as jose', async () => {
    const token = await seal(payload, [secret], salt, { now, expires: now + 60 })
    const alphabet = 'AQgw_-9z.'
    let opened = 0
    for (let i = 0; i < token.length; i++) {
      const c = alphabet[i % alphabet.length] === token[i] ? 'B' : alphabet[i % alphabet.length]
      const changed = token.slice(0, i) + c + token.slice(i + 1)
      const node = openWithNode(changed, secret, salt, now)
      const judged = await viaJose(changed, now)
      // undefined: not latchkey's exact header, left to jose.
      if (node !== undefined) expect([i, node]).toEqual([i, judged])
      if (judged) opened++
    }
    // Only changes in a base64url segment's unused last bits decode to the same bytes.
    expect(opened).toBeLessThan(8)
  })

  it('claims as jose checks them: nbf in the future, a non-number iat or exp', async () => {
    const key = await deriveKey(secret, salt)
    const make = (claims: Record<string, unknown>) => new EncryptJWT(claims).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key)
    for (const claims of [{ exp: now + 60, nbf: now + 1 }, { exp: now + 60, iat: 'x' }, { exp: String(now + 60) }, { exp: now + 60, nbf: now }]) {
      const token = await make(claims)
      expect([claims, openWithNode(token, secret, salt, now)]).toEqual([claims, await viaJose(token, now)])
    }
  })

  it('a header in another form (key order, extra members) is left to jose', async () => {
    const key = await deriveKey(secret, salt)
    const token = await new EncryptJWT({ exp: now + 60 }).setProtectedHeader({ enc: 'A256GCM', alg: 'dir' }).encrypt(key)
    expect(openWithNode(token, secret, salt, now)).toBeUndefined()
    expect(await unseal(token, [secret], salt, now)).toMatchObject({ exp: now + 60 })
    const typed = await new EncryptJWT({ exp: now + 60 }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', typ: 'JWT' }).encrypt(key)
    expect(openWithNode(typed, secret, salt, now)).toBeUndefined()
    expect(openWithNode('not.a.token', secret, salt, now)).toBeUndefined()
  })
})

describe('GET /session with a JWT in another form', () => {
  it('is read through jose, with each secret in turn; one changed character and it is no session', async () => {
    const old = 'an-older-secret-0123456789abcdef-xyz'
    const handler = Latchkey({ secret: [secret, old], origin: 'http://localhost:3000', session: { strategy: 'jwt' }, rateLimit: false, providers: [Credentials({ authorize: () => null })] })
    const t = Math.floor(Date.now() / 1000)
    // The header's members in the other order: not latchkey's exact form, so node:crypto leaves it to jose.
    const token = await new EncryptJWT({ sub: 'user-1', email: 'z@example.com', name: 'Zoë', picture: null })
      .setProtectedHeader({ enc: 'A256GCM', alg: 'dir' })
      .setIssuedAt(t)
      .setExpirationTime(t + 3600)
      .encrypt(await deriveKey(old, salt))
    expect(openWithNode(token, old, salt, t)).toBeUndefined()
    const read = async (cookie: string) => (await handler(new Request('http://localhost:3000/auth/session', { headers: { cookie: `${salt}=${cookie}` } }))).json()
    expect(await read(token)).toMatchObject({ user: { id: 'user-1', email: 'z@example.com', name: 'Zoë' } })
    const parts = token.split('.')
    const middle = Math.floor(parts[3].length / 2)
    parts[3] = parts[3].slice(0, middle) + (parts[3][middle] === 'A' ? 'B' : 'A') + parts[3].slice(middle + 1)
    expect(await read(parts.join('.'))).toBeNull()
  })
})
