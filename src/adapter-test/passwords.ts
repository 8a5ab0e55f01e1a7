/**
 * Password hashes (latchkey's optional addition): one hash per user, kept beside the user and
 * never in the user record. Adapters without the two methods pass these unchecked (the server
 * then refuses to turn passwords on, naming them).
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { later, unique, type Suite } from './fixtures.js'

// An adapter has both or the suite skips these tests.
export { passwordMethods } from '../adapters/passwords.js'
import { passwordMethods } from '../adapters/passwords.js'

/** A hash shaped like the server's (a PHC string): `$`, `=`, `,` and base64 must come back as stored. */
const phc = () => `$argon2id$v=19$m=19456,t=2,p=1$${unique()}$${btoa(unique()).replace(/=+$/, '')}`

export function passwordTests(suite: Suite): void {
  describe('passwords', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite
    const keeps = () => passwordMethods.every((method) => typeof adapter[method] === 'function')

    test('setPasswordHash stores the hash and getPasswordHash reads it back exactly, the user’s only', async () => {
      if (!keeps()) return
      const owner = await user()
      const other = await user()
      const hash = phc()
      await adapter.setPasswordHash(owner.id, hash)
      await adapter.setPasswordHash(other.id, phc())
      expect(await adapter.getPasswordHash(owner.id)).toBe(hash)
      expect(await adapter.getPasswordHash(other.id)).not.toBe(hash)
    })

    test('getPasswordHash is null for a user without one and for an unknown user', async () => {
      if (!keeps()) return
      expect(await adapter.getPasswordHash((await user()).id)).toBeNull()
      expect(await adapter.getPasswordHash(randomUUID())).toBeNull()
    })

    test('a new hash replaces the old one', async () => {
      if (!keeps()) return
      const owner = await user()
      await adapter.setPasswordHash(owner.id, phc())
      const second = phc()
      await adapter.setPasswordHash(owner.id, second)
      expect(await adapter.getPasswordHash(owner.id)).toBe(second)
    })

    test('null removes the hash; removing again, or for a user without one, changes nothing', async () => {
      if (!keeps()) return
      const owner = await user()
      const other = await user()
      const kept = phc()
      await adapter.setPasswordHash(owner.id, phc())
      await adapter.setPasswordHash(other.id, kept)
      await adapter.setPasswordHash(owner.id, null)
      expect(await adapter.getPasswordHash(owner.id)).toBeNull()
      await adapter.setPasswordHash(owner.id, null)
      expect(await adapter.getPasswordHash(owner.id)).toBeNull()
      expect(await adapter.getPasswordHash(other.id)).toBe(kept)
    })

    test('a hash of 1024 characters, the most allowed, is kept whole', async () => {
      if (!keeps()) return
      const owner = await user()
      const longest = `$scrypt$${'a'.repeat(1016)}`
      expect(longest).toHaveLength(1024)
      await adapter.setPasswordHash(owner.id, longest)
      expect(await adapter.getPasswordHash(owner.id)).toBe(longest)
    })

    test('storing a hash for an unknown user throws UnknownUser and stores nothing', async () => {
      if (!keeps()) return
      const stranger = randomUUID()
      await expect(adapter.setPasswordHash(stranger, phc())).rejects.toMatchObject({
        code: 'UnknownUser',
        message: expect.stringMatching(/^setPasswordHash: /),
      })
      expect(await adapter.getPasswordHash(stranger)).toBeNull()
    })

    test('deleteUser takes the user’s hash with it; a new user with the same id starts without one', async () => {
      if (!keeps()) return
      const owner = await user()
      await adapter.setPasswordHash(owner.id, phc())
      await adapter.deleteUser(owner.id)
      expect(await adapter.getPasswordHash(owner.id)).toBeNull()
      await adapter.createUser({ ...owner, email: `again-${unique()}@example.test` })
      expect(await adapter.getPasswordHash(owner.id)).toBeNull()
    })

    test('the hash never travels with the user: getUser, getUserByEmail and getSessionAndUser answer without it', async () => {
      if (!keeps()) return
      const owner = await user({ name: 'Has a password' })
      const hash = phc()
      await adapter.setPasswordHash(owner.id, hash)
      const sessionToken = `s-${unique()}`
      await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
      const answers = [await adapter.getUser(owner.id), await adapter.getUserByEmail(owner.email), (await adapter.getSessionAndUser(sessionToken))?.user]
      for (const answer of answers) {
        expect(answer).toEqual(owner)
        expect(JSON.stringify(answer)).not.toContain(hash)
      }
    })

    test('malformed input is refused with InvalidInput, naming the method and the field, and changes nothing', async () => {
      if (!keeps()) return
      const owner = await user()
      const hash = phc()
      await adapter.setPasswordHash(owner.id, hash)
      for (const bad of ['', 'x'.repeat(1025), 42, undefined, {}, ['$argon2id$']]) {
        await expect(adapter.setPasswordHash(owner.id, bad as never)).rejects.toMatchObject({
          code: 'InvalidInput',
          message: expect.stringMatching(/^setPasswordHash: .*hash/),
        })
      }
      for (const bad of ['', 7, null, undefined]) {
        await expect(adapter.setPasswordHash(bad as never, phc())).rejects.toMatchObject({
          code: 'InvalidInput',
          message: expect.stringMatching(/^setPasswordHash: .*userId/),
        })
      }
      expect(await adapter.getPasswordHash(owner.id)).toBe(hash)
    })

    test('10 parallel sets for one user: exactly one of the hashes is stored, whole', async () => {
      if (!keeps()) return
      const owner = await user()
      const hashes = Array.from({ length: 10 }, phc)
      await Promise.all(hashes.map((hash) => adapter.setPasswordHash(owner.id, hash)))
      expect(hashes).toContain(await adapter.getPasswordHash(owner.id))
    })
  })
}
