/** Passkey names (latchkey's addition): the AAGUID kept at creation, and `updateAuthenticatorName`. Run where the adapter has the method. */
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { authenticator, unique, type Suite } from './fixtures.js'

export function authenticatorNameTests(suite: Suite): void {
  describe('authenticator names', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite
    const keeps = () => typeof adapter.updateAuthenticatorName === 'function'

    test('createAuthenticator keeps aaguid and name; getAuthenticator and the list read them back', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = authenticator(owner.id, { transports: 'internal', aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', name: 'Work laptop' })
      expect(await adapter.createAuthenticator(input)).toEqual(input)
      expect(await adapter.getAuthenticator(input.credentialID)).toEqual(input)
      expect(await adapter.listAuthenticatorsByUserId(owner.id)).toEqual([input])
    })

    test('updateAuthenticatorName sets the name, changes nothing else, and null clears it', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = authenticator(owner.id, { transports: 'hybrid,internal', counter: 3, aaguid: 'bada5566-a7aa-401f-bd96-45619a55120d' })
      await adapter.createAuthenticator(input)
      const other = authenticator(owner.id, { name: 'Other' })
      await adapter.createAuthenticator(other)
      expect(await adapter.updateAuthenticatorName(input.credentialID, 'Phone ✓')).toEqual({ ...input, name: 'Phone ✓' })
      expect(await adapter.getAuthenticator(input.credentialID)).toEqual({ ...input, name: 'Phone ✓' })
      expect((await adapter.getAuthenticator(other.credentialID))?.name).toBe('Other')
      const cleared = await adapter.updateAuthenticatorName(input.credentialID, null)
      expect(cleared?.name ?? null).toBeNull()
      expect((await adapter.getAuthenticator(input.credentialID))?.name ?? null).toBeNull()
    })

    test('updateAuthenticatorName answers null for an unknown credential and creates nothing', async () => {
      if (!keeps()) return
      const id = `cred-${unique()}`
      expect(await adapter.updateAuthenticatorName(id, 'Nobody')).toBeNull()
      expect(await adapter.getAuthenticator(id)).toBeNull()
    })

    test('updateAuthenticatorName refuses a name that is not a string or null, changing nothing', async () => {
      if (!keeps()) return
      const owner = await user()
      const input = authenticator(owner.id, { name: 'Kept' })
      await adapter.createAuthenticator(input)
      await expect(adapter.updateAuthenticatorName(input.credentialID, 42 as unknown as string)).rejects.toThrow()
      expect((await adapter.getAuthenticator(input.credentialID))?.name).toBe('Kept')
    })
  })
}
