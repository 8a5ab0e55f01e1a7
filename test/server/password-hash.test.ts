/**
 * Password hashing (scrypt in a PHC string) and the length policy: the stored form round-trips,
 * anything tampered or foreign is a plain miss, older parameters ask for a re-hash, node:crypto and
 * @noble/hashes derive the same bytes, and normalization makes equal-looking passwords equal.
 * Cheap parameters (ln=10) everywhere but the one test of the defaults.
 */
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import { DEFAULT_SCRYPT, deriveKey, dummyVerify, hashPassword, parsePhc, verifyPassword, type ScryptParams } from '../../src/server/features/password/hash.js'
import { checkPasswordPolicy, normalizePassword, resolvePasswordLengths } from '../../src/server/features/password/policy.js'

const cheap: ScryptParams = { ln: 10, r: 8, p: 1 }
const cheaper: ScryptParams = { ln: 9, r: 8, p: 1 }
const phcForm = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

// Watches node:crypto's scrypt (the module object getBuiltinModule hands out) before hash.ts first
// looks it up, to see which parameters each call derives with.
const nodeCryptoModule = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')
const scryptSpy = vi.spyOn(nodeCryptoModule, 'scrypt')
afterAll(() => scryptSpy.mockRestore())

/** The (N, r, p, keylen) of every node scrypt call made while `run` ran. */
async function scryptCalls(run: () => Promise<unknown>): Promise<Array<[number, number, number, number]>> {
  scryptSpy.mockClear()
  await run()
  return scryptSpy.mock.calls.map((call) => {
    const options = call[3] as { N: number; r: number; p: number }
    return [options.N, options.r, options.p, call[2] as number]
  })
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex')
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** `stored` with the character at `index` swapped for another of the base64 alphabet. */
function flip(stored: string, index: number): string {
  const c = stored[index]
  return stored.slice(0, index) + (c === 'A' ? 'B' : 'A') + stored.slice(index + 1)
}

describe('hashPassword / verifyPassword', () => {
  let stored: string
  beforeAll(async () => {
    stored = await hashPassword('correct horse battery staple', cheap)
  })

  it('writes a PHC scrypt string with the parameters, a 16-byte salt and a 32-byte key, and verifies it', async () => {
    const match = phcForm.exec(stored)
    expect(match).not.toBeNull()
    expect(match!.slice(1, 4)).toEqual(['10', '8', '1'])
    expect(Buffer.from(match![4], 'base64')).toHaveLength(16)
    expect(Buffer.from(match![5], 'base64')).toHaveLength(32)
    // Unpadded base64: 22 and 43 characters, no '='.
    expect([match![4].length, match![5].length]).toEqual([22, 43])
    expect(await verifyPassword('correct horse battery staple', stored, cheap)).toEqual({ ok: true, rehash: false })
  })

  it('salts every hash afresh', async () => {
    const again = await hashPassword('correct horse battery staple', cheap)
    expect(again).not.toBe(stored)
    expect(parsePhc(again)!.salt).not.toEqual(parsePhc(stored)!.salt)
    expect((await verifyPassword('correct horse battery staple', again, cheap)).ok).toBe(true)
  })

  it('refuses a wrong password, one character off or empty', async () => {
    expect(await verifyPassword('correct horse battery stapler', stored, cheap)).toEqual({ ok: false, rehash: false })
    expect(await verifyPassword('Correct horse battery staple', stored, cheap)).toEqual({ ok: false, rehash: false })
    expect(await verifyPassword('', stored, cheap)).toEqual({ ok: false, rehash: false })
  })

  it('is a miss for a tampered stored hash: key, salt or parameters changed, truncated, padded', async () => {
    const [, , , salt, key] = stored.split('$')
    const saltStart = stored.indexOf(salt)
    const keyStart = stored.lastIndexOf(key)
    const tampered = [
      flip(stored, keyStart + 3),
      flip(stored, saltStart + 3),
      stored.replace('ln=10', 'ln=11'),
      stored.replace('r=8', 'r=9'),
      stored.replace('p=1', 'p=2'),
      stored.slice(0, -4),
      `${stored}=`,
      `${stored}$`,
      ` ${stored}`,
      stored.replace('ln=10', 'ln=010'),
      // A shorter key, canonically spelled: scrypt's shorter output is a prefix of the longer one, so it must not pass.
      stored.slice(0, keyStart) + Buffer.from(key!, 'base64').subarray(0, 24).toString('base64').replace(/=+$/, ''),
      // The last character of an unpadded 32-byte key carries 2 unused bits; a non-canonical
      // spelling would decode to the same bytes, so it is refused rather than accepted.
      stored.slice(0, -1) + alphabet[alphabet.indexOf(stored.at(-1)!) ^ 1],
    ]
    for (const bad of tampered) {
      expect(await verifyPassword('correct horse battery staple', bad, cheap), bad).toEqual({ ok: false, rehash: false })
    }
  })

  it('is a miss, never a throw, for other algorithms and malformed or absurd stored data', async () => {
    const foreign = [
      '',
      'plaintext-password',
      '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$ZGVyaXZlZGtleWRlcml2ZWRrZXlkZXJpdmVka2V5',
      '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW',
      'pbkdf2_sha256$600000$salt$hash',
      'a1b2c3d4e5f60718293a4b5c6d7e8f90:deadbeef',
      '$scrypt$ln=10,r=8$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$r=8,ln=10,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$ln=10,r=8,p=1$$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$ln=10,r=8,p=1$c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5',
      '$scrypt$ln=10,r=8,p=1$c2Fsd-Nh_HRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      // Parameters that would take gigabytes or minutes: refused unread.
      '$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$ln=20,r=8,p=64$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
      '$scrypt$ln=0,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
    ]
    for (const bad of foreign) {
      expect(await verifyPassword('correct horse battery staple', bad, cheap), bad).toEqual({ ok: false, rehash: false })
    }
  })

  it('throws a clear error for a stored hash or password that is not a string', async () => {
    await expect(verifyPassword('pw', null as unknown as string)).rejects.toThrow(/stored hash as a string, got null/)
    await expect(verifyPassword('pw', undefined as unknown as string)).rejects.toThrow(TypeError)
    const error = await verifyPassword(42 as unknown as string, stored, cheap).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).type).toBe('InvalidRequest')
    await expect(hashPassword(undefined as unknown as string, cheap)).rejects.toThrow(AuthError)
  })

  it('refuses out-of-range parameters with a configuration error that says the defaults', async () => {
    for (const params of [{ ln: 0, r: 8, p: 1 }, { ln: 10.5, r: 8, p: 1 }, { ln: 10, r: 0, p: 1 }, { ln: 31, r: 8, p: 1 }, { ln: 25, r: 64, p: 1 }]) {
      const error = await hashPassword('pw', params).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AuthError)
      expect((error as AuthError).type).toBe('Configuration')
      expect((error as AuthError).message).toMatch(/ln=15, r=8, p=1/)
    }
  })

  it('asks for a re-hash when the stored parameters differ from the current ones, and only on a match', async () => {
    const old = await hashPassword('correct horse battery staple', cheaper)
    expect(await verifyPassword('correct horse battery staple', old, cheap)).toEqual({ ok: true, rehash: true })
    expect(await verifyPassword('correct horse battery staple', old, cheaper)).toEqual({ ok: true, rehash: false })
    expect(await verifyPassword('wrong password', old, cheap)).toEqual({ ok: false, rehash: false })
    // Against the shipped defaults, the cheap test hash is outdated.
    expect(await verifyPassword('correct horse battery staple', stored)).toEqual({ ok: true, rehash: true })
    // The re-made hash carries the current parameters and no longer asks.
    const renewed = await hashPassword('correct horse battery staple', cheap)
    expect(await verifyPassword('correct horse battery staple', renewed, cheap)).toEqual({ ok: true, rehash: false })
  })

  it('with the defaults: ln=15, r=8, p=1, verified without a re-hash', async () => {
    expect(DEFAULT_SCRYPT).toEqual({ ln: 15, r: 8, p: 1 })
    const calls = await scryptCalls(async () => {
      const hashed = await hashPassword('a default password')
      expect(hashed.startsWith('$scrypt$ln=15,r=8,p=1$')).toBe(true)
      expect(await verifyPassword('a default password', hashed)).toEqual({ ok: true, rehash: false })
    })
    expect(calls).toEqual([
      [2 ** 15, 8, 1, 32],
      [2 ** 15, 8, 1, 32],
    ])
  })

  it('dummyVerify derives with the same parameters and length as a real verify, and always misses', async () => {
    const real = await scryptCalls(() => verifyPassword('correct horse battery staple', stored, cheap))
    const dummy = await scryptCalls(async () => {
      expect(await dummyVerify('correct horse battery staple', cheap)).toEqual({ ok: false, rehash: false })
      expect(await dummyVerify('', cheap)).toEqual({ ok: false, rehash: false })
    })
    expect(real).toEqual([[1024, 8, 1, 32]])
    expect(dummy).toEqual([
      [1024, 8, 1, 32],
      [1024, 8, 1, 32],
    ])
    // Without parameters it spends what a verify with the defaults spends.
    expect(await scryptCalls(() => dummyVerify('anything'))).toEqual([[2 ** 15, 8, 1, 32]])
  })
})

describe('node:crypto and @noble/hashes', () => {
  it('both give RFC 7914’s test vector (password, NaCl, N=1024, r=8, p=16)', async () => {
    const expected = 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640'
    const salt = new TextEncoder().encode('NaCl')
    const params = { ln: 10, r: 8, p: 16 }
    expect(hex(await deriveKey('password', salt, params, { dkLen: 64, impl: 'node' }))).toBe(expected)
    expect(hex(await deriveKey('password', salt, params, { dkLen: 64, impl: 'noble' }))).toBe(expected)
  })

  it('derive identical bytes for the same password, salt and parameters, Unicode included', async () => {
    const salt = crypto.getRandomValues(new Uint8Array(16))
    for (const [password, params] of [
      ['correct horse battery staple', cheap],
      ['pässwörd 😀 密码', { ln: 8, r: 4, p: 2 }],
      ['', { ln: 4, r: 1, p: 1 }],
    ] as const) {
      const node = await deriveKey(password, salt, params, { impl: 'node' })
      const noble = await deriveKey(password, salt, params, { impl: 'noble' })
      expect(node).toHaveLength(32)
      expect(hex(noble)).toBe(hex(node))
    }
  })

  it('a hash made through node:crypto is the key @noble/hashes derives from its salt and parameters', async () => {
    const stored = await hashPassword('pässwörd 😀', cheap)
    const { salt, params, hash } = parsePhc(stored)!
    expect(hex(await deriveKey('pässwörd 😀', salt, params, { impl: 'noble' }))).toBe(hex(hash))
  })
})

describe('the password policy', () => {
  it('normalizes, so NFC and NFD spellings of "café" hash and verify alike', async () => {
    const nfc = 'café-au-lait'.normalize('NFC')
    const nfd = 'café-au-lait'.normalize('NFD')
    expect(nfc).not.toBe(nfd)
    expect(checkPasswordPolicy(nfd)).toBe(checkPasswordPolicy(nfc))
    const stored = await hashPassword(checkPasswordPolicy(nfc), cheap)
    expect((await verifyPassword(checkPasswordPolicy(nfd), stored, cheap)).ok).toBe(true)
    // Unnormalized, the two are different bytes: the normalization is what makes them equal.
    expect((await verifyPassword(nfd, stored, cheap)).ok).toBe(false)
  })

  it('uses NFKC: compatibility forms (full-width letters, ligatures) become their plain letters', () => {
    expect(normalizePassword('ｐａｓｓｗｏｒｄ')).toBe('password')
    expect(normalizePassword('ﬁnancial')).toBe('financial')
  })

  it('refuses a short password with PasswordTooShort, in words, as a 400', () => {
    let error: unknown
    try {
      checkPasswordPolicy('hello')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).type).toBe('PasswordTooShort')
    expect((error as AuthError).status).toBe(400)
    expect((error as AuthError).message).toBe('Expected a password of at least 8 characters, got 5')
  })

  it('accepts 64- and 128-character passwords, which hash and verify; refuses 129 with PasswordTooLong', async () => {
    const long64 = 'x'.repeat(63) + '!'
    const long128 = 'Lorem ipsum dolor sit amet, '.repeat(5).slice(0, 128)
    expect(long128).toHaveLength(128)
    for (const password of [long64, long128]) {
      const normalized = checkPasswordPolicy(password)
      const stored = await hashPassword(normalized, cheap)
      expect((await verifyPassword(normalized, stored, cheap)).ok).toBe(true)
      expect((await verifyPassword(normalized.slice(0, -1), stored, cheap)).ok).toBe(false)
    }
    expect(() => checkPasswordPolicy('y'.repeat(129))).toThrow(expect.objectContaining({ type: 'PasswordTooLong', status: 400, message: 'Expected a password of at most 128 characters, got 129' }))
  })

  it('counts an emoji as one character (code points, not UTF-16 units)', async () => {
    expect(checkPasswordPolicy('😀'.repeat(8))).toBe('😀'.repeat(8))
    expect(() => checkPasswordPolicy('😀'.repeat(7))).toThrow('Expected a password of at least 8 characters, got 7')
    expect(checkPasswordPolicy('🔑'.repeat(128))).toHaveLength(256)
    expect(() => checkPasswordPolicy('🔑'.repeat(129))).toThrow('Expected a password of at most 128 characters, got 129')
    const stored = await hashPassword('🔑'.repeat(128), cheap)
    expect((await verifyPassword('🔑'.repeat(128), stored, cheap)).ok).toBe(true)
  })

  it('applies configured lengths', () => {
    expect(() => checkPasswordPolicy('twelve chars', { minLength: 13 })).toThrow('Expected a password of at least 13 characters, got 12')
    expect(checkPasswordPolicy('twelve chars', { minLength: 12 })).toBe('twelve chars')
    expect(() => checkPasswordPolicy('z'.repeat(65), { maxLength: 64 })).toThrow(expect.objectContaining({ type: 'PasswordTooLong' }))
  })

  it('has no composition rules: all-lowercase, all-digit and space-filled passwords pass', () => {
    for (const password of ['abcdefgh', '12345678', 'four word pass phrase', '        ']) expect(checkPasswordPolicy(password)).toBe(password)
  })

  it('refuses a non-string or a lone surrogate with InvalidRequest', () => {
    for (const bad of [undefined, null, 12345678, ['password'], { password: 'password' }]) {
      expect(() => checkPasswordPolicy(bad)).toThrow(expect.objectContaining({ type: 'InvalidRequest', status: 400 }))
    }
    expect(() => normalizePassword(42 as unknown as string)).toThrow(expect.objectContaining({ type: 'InvalidRequest' }))
    expect(() => checkPasswordPolicy('password\uD800x')).toThrow(expect.objectContaining({ type: 'InvalidRequest', message: expect.stringMatching(/well-formed Unicode/) }))
  })

  it('resolvePasswordLengths keeps NIST’s floors, with a configuration error that says the fix', () => {
    expect(resolvePasswordLengths()).toEqual({ minLength: 8, maxLength: 128 })
    expect(resolvePasswordLengths(12, 256)).toEqual({ minLength: 12, maxLength: 256 })
    expect(resolvePasswordLengths(undefined, 64)).toEqual({ minLength: 8, maxLength: 64 })
    expect(resolvePasswordLengths(200)).toEqual({ minLength: 200, maxLength: 200 })
    const cases: Array<[number | undefined, number | undefined, RegExp]> = [
      [6, undefined, /password\.minLength is 6: .*at least 8.*Set an integer of 8 or more/],
      [8.5, undefined, /password\.minLength is 8\.5/],
      [undefined, 32, /password\.maxLength is 32: .*at least 64.*Set an integer of 64 or more/],
      [100, 80, /minLength \(100\) is more than password\.maxLength \(80\)/],
      [Number.NaN, undefined, /password\.minLength is NaN/],
    ]
    for (const [min, max, message] of cases) {
      expect(() => resolvePasswordLengths(min, max)).toThrow(expect.objectContaining({ type: 'Configuration', status: 500, message: expect.stringMatching(message) }))
    }
  })
})
