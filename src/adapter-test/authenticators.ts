/** Authenticators (passkeys): register, read, list, count. */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter, AdapterAuthenticator } from '../core/types.js'
import { authenticator, unique, type Suite } from './fixtures.js'

export function authenticatorTests(suite: Suite): void {
  describe('authenticators', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    test('createAuthenticator returns it and getAuthenticator reads it back, transports set', async () => {
      const owner = await user()
      const input = authenticator(owner.id, {
        counter: 7,
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
        transports: 'internal,hybrid',
      })
      expect(await adapter.createAuthenticator(input)).toEqual(input)
      expect(await adapter.getAuthenticator(input.credentialID)).toEqual(input)
    })

    test('transports given as null stay null; absent transports read back as absent or null', async () => {
      const owner = await user()
      const withNull = authenticator(owner.id, { transports: null })
      await adapter.createAuthenticator(withNull)
      expect((await adapter.getAuthenticator(withNull.credentialID))?.transports).toBeNull()
      const withoutKey = authenticator(owner.id)
      await adapter.createAuthenticator(withoutKey)
      const read = await adapter.getAuthenticator(withoutKey.credentialID)
      expect(read?.transports ?? null).toBeNull()
      expect(read?.credentialBackedUp).toBe(false)
      expect(read?.counter).toBe(0)
    })

    test('getAuthenticator returns null when not found', async () => {
      expect(await adapter.getAuthenticator(`cred-${unique()}`)).toBeNull()
    })

    test('createAuthenticator throws for a credentialID already registered', async () => {
      const owner = await user()
      const input = authenticator(owner.id, { counter: 1 })
      await adapter.createAuthenticator(input)
      await expect(adapter.createAuthenticator({ ...input, counter: 99 })).rejects.toThrow()
      expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(1)
    })

    test('createAuthenticator throws for an unknown user', async () => {
      const input = authenticator(randomUUID())
      await expect(adapter.createAuthenticator(input)).rejects.toThrow()
      expect(await adapter.getAuthenticator(input.credentialID)).toBeNull()
    })

    test("listAuthenticatorsByUserId returns all of the user's authenticators and no one else's", async () => {
      const owner = await user()
      const other = await user()
      const a = authenticator(owner.id, { transports: 'usb' })
      const b = authenticator(owner.id, { counter: 3 })
      await adapter.createAuthenticator(a)
      await adapter.createAuthenticator(b)
      await adapter.createAuthenticator(authenticator(other.id))
      const list = await adapter.listAuthenticatorsByUserId(owner.id)
      const byId = (x: AdapterAuthenticator, y: AdapterAuthenticator) => x.credentialID.localeCompare(y.credentialID)
      expect(list.map((item) => ({ ...item, transports: item.transports ?? null })).sort(byId)).toEqual(
        [a, { ...b, transports: null }].sort(byId),
      )
    })

    test('listAuthenticatorsByUserId returns [] for an unknown user and for a user without any', async () => {
      expect(await adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([])
      const owner = await user()
      expect(await adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
    })

    test('updateAuthenticatorCounter stores and returns the new counter, up to 2^32 - 1', async () => {
      const owner = await user()
      const input = authenticator(owner.id, { counter: 1 })
      await adapter.createAuthenticator(input)
      const updated = await adapter.updateAuthenticatorCounter(input.credentialID, 2)
      expect(updated).toEqual({ ...input, counter: 2, transports: updated.transports })
      expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(2)
      await adapter.updateAuthenticatorCounter(input.credentialID, 4_294_967_295)
      expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(4_294_967_295)
    })

    test('updateAuthenticatorCounter throws for an unknown credential', async () => {
      const credentialID = `cred-${unique()}`
      await expect(adapter.updateAuthenticatorCounter(credentialID, 5)).rejects.toThrow()
      expect(await adapter.getAuthenticator(credentialID)).toBeNull()
    })
  })
}
