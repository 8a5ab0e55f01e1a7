/** Users: create, read, update and delete (with everything the user owns), one user per email. */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { account, authenticator, later, newUser, unique, type Suite } from './fixtures.js'

export function userTests(suite: Suite): void {
  describe('users', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    test('createUser returns the user with its id, email and a null emailVerified', async () => {
      const input = newUser()
      const created = await adapter.createUser(input)
      expect(typeof created.id).toBe('string')
      expect(created.id.length).toBeGreaterThan(0)
      expect(created.email).toBe(input.email)
      expect(created.emailVerified).toBeNull()
      expect(created.name ?? null).toBeNull()
      expect(created.image ?? null).toBeNull()
      expect(await adapter.getUser(created.id)).toEqual(created)
    })

    test('createUser keeps name, image and emailVerified to the millisecond', async () => {
      const emailVerified = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
      const created = await user({ name: 'Ada Lovelace', image: 'https://img.example.test/ada.png', emailVerified })
      const read = await adapter.getUser(created.id)
      expect(read?.name).toBe('Ada Lovelace')
      expect(read?.image).toBe('https://img.example.test/ada.png')
      expect(read?.emailVerified).toBeInstanceOf(Date)
      expect(read?.emailVerified?.getTime()).toBe(emailVerified.getTime())
    })

    test('createUser keeps name and image given as null as null', async () => {
      const created = await user({ name: null, image: null })
      const read = await adapter.getUser(created.id)
      expect(read?.name).toBeNull()
      expect(read?.image).toBeNull()
    })

    test('getUser returns null for an unknown id', async () => {
      expect(await adapter.getUser(randomUUID())).toBeNull()
    })

    test('getUserByEmail finds the user, and returns null for an unknown email', async () => {
      const created = await user()
      expect((await adapter.getUserByEmail(created.email))?.id).toBe(created.id)
      expect(await adapter.getUserByEmail(`nobody-${unique()}@example.test`)).toBeNull()
    })

    test('createUser with an email already taken throws and leaves the first user intact', async () => {
      const first = await user({ name: 'First' })
      await expect(adapter.createUser(newUser({ email: first.email, name: 'Second' }))).rejects.toThrow()
      const found = await adapter.getUserByEmail(first.email)
      expect(found?.id).toBe(first.id)
      expect(found?.name).toBe('First')
    })

    test('updateUser changes only the fields given and returns the user', async () => {
      const created = await user({ name: 'Before', image: 'https://img.example.test/before.png' })
      const emailVerified = new Date(Date.UTC(2026, 4, 6, 7, 8, 9, 10))
      const updated = await adapter.updateUser({ id: created.id, name: 'After', emailVerified })
      expect(updated.id).toBe(created.id)
      expect(updated.name).toBe('After')
      expect(updated.image).toBe('https://img.example.test/before.png')
      expect(updated.email).toBe(created.email)
      expect(updated.emailVerified?.getTime()).toBe(emailVerified.getTime())
      expect(await adapter.getUser(created.id)).toEqual(updated)
    })

    test('updateUser sets a field to null and changes the email', async () => {
      const created = await user({ name: 'Named' })
      const email = `moved-${unique()}@example.test`
      const updated = await adapter.updateUser({ id: created.id, name: null, email })
      expect(updated.name).toBeNull()
      expect(updated.email).toBe(email)
      expect((await adapter.getUserByEmail(email))?.id).toBe(created.id)
      expect(await adapter.getUserByEmail(created.email)).toBeNull()
    })

    test('updateUser treats a field given as undefined as not given', async () => {
      const created = await user({ name: 'Stays', image: 'https://img.example.test/stays.png' })
      const updated = await adapter.updateUser({ id: created.id, name: undefined, image: 'https://img.example.test/new.png' })
      expect(updated.name).toBe('Stays')
      expect((await adapter.getUser(created.id))?.name).toBe('Stays')
      expect((await adapter.getUser(created.id))?.image).toBe('https://img.example.test/new.png')
    })

    test('updateUser throws for an unknown user', async () => {
      await expect(adapter.updateUser({ id: randomUUID(), name: 'Ghost' })).rejects.toThrow()
    })

    test("updateUser to another user's email throws and changes nothing", async () => {
      const a = await user()
      const b = await user({ name: 'B' })
      await expect(adapter.updateUser({ id: b.id, email: a.email, name: 'changed' })).rejects.toThrow()
      const read = await adapter.getUser(b.id)
      expect(read?.email).toBe(b.email)
      expect(read?.name).toBe('B')
    })

    test('returned users are copies: changing one does not change the store', async () => {
      const created = await user({ name: 'Original' })
      created.name = 'Mutated'
      const read = await adapter.getUser(created.id)
      expect(read?.name).toBe('Original')
      read!.emailVerified = new Date(0)
      expect((await adapter.getUser(created.id))?.emailVerified).toBeNull()
    })

    test('deleteUser removes the user with its accounts, sessions and authenticators, and nobody else’s', async () => {
      const doomed = await user()
      const other = await user()
      const doomedAccount = account(doomed.id)
      const otherAccount = account(other.id)
      await adapter.linkAccount(doomedAccount)
      await adapter.linkAccount(otherAccount)
      const doomedToken = `session-${unique()}`
      const otherToken = `session-${unique()}`
      await adapter.createSession({ sessionToken: doomedToken, userId: doomed.id, expires: later(30) })
      await adapter.createSession({ sessionToken: otherToken, userId: other.id, expires: later(30) })
      const doomedKey = authenticator(doomed.id)
      const otherKey = authenticator(other.id)
      await adapter.createAuthenticator(doomedKey)
      await adapter.createAuthenticator(otherKey)

      await adapter.deleteUser(doomed.id)

      expect(await adapter.getUser(doomed.id)).toBeNull()
      expect(await adapter.getUserByEmail(doomed.email)).toBeNull()
      expect(await adapter.getAccount(doomedAccount.providerAccountId, doomedAccount.provider)).toBeNull()
      expect(await adapter.getUserByAccount(doomedAccount)).toBeNull()
      expect(await adapter.getSessionAndUser(doomedToken)).toBeNull()
      expect(await adapter.getAuthenticator(doomedKey.credentialID)).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId(doomed.id)).toEqual([])

      expect((await adapter.getUser(other.id))?.id).toBe(other.id)
      expect(await adapter.getAccount(otherAccount.providerAccountId, otherAccount.provider)).not.toBeNull()
      expect((await adapter.getSessionAndUser(otherToken))?.user.id).toBe(other.id)
      expect(await adapter.getAuthenticator(otherKey.credentialID)).not.toBeNull()
    })

    test('deleteUser frees the email for a new user', async () => {
      const first = await user()
      await adapter.deleteUser(first.id)
      const second = await user({ email: first.email })
      expect((await adapter.getUserByEmail(first.email))?.id).toBe(second.id)
    })

    test('deleteUser of an unknown user does not throw', async () => {
      const result = await adapter.deleteUser(randomUUID())
      expect(result ?? null).toBeNull()
    })
  })
}
