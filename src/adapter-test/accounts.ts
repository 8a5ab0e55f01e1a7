/** Accounts: linking, reading and unlinking, one account per (provider, providerAccountId). */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { account, unique, type Suite } from './fixtures.js'

export function accountTests(suite: Suite): void {
  describe('accounts', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    test('linkAccount stores every token field and extra fields such as session_state', async () => {
      const owner = await user()
      const input = account(owner.id, {
        type: 'oidc',
        access_token: `at-${unique()}`,
        refresh_token: `rt-${unique()}`,
        id_token: `it-${unique()}`,
        scope: 'openid email profile',
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: 1_900_000_000,
        session_state: `ss-${unique()}`,
        authorization_details: [{ type: 'payment_initiation', actions: ['initiate'], locations: ['https://bank.example.test'] }],
        custom_claim: { nested: [1, 'two', true, null] },
      })
      await adapter.linkAccount(input)
      expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(input)
    })

    test('linkAccount with only the required fields gives back no token fields', async () => {
      const owner = await user()
      const input = account(owner.id, { type: 'email' })
      await adapter.linkAccount(input)
      expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(input)
    })

    test('getUserByAccount finds the owner by provider and providerAccountId', async () => {
      const owner = await user({ name: 'Owner' })
      const input = account(owner.id)
      await adapter.linkAccount(input)
      const found = await adapter.getUserByAccount({ provider: input.provider, providerAccountId: input.providerAccountId })
      expect(found).toEqual(owner)
    })

    test('getUserByAccount returns null for an unknown account or the right id under another provider', async () => {
      const owner = await user()
      const input = account(owner.id)
      await adapter.linkAccount(input)
      expect(await adapter.getUserByAccount({ provider: input.provider, providerAccountId: unique() })).toBeNull()
      expect(await adapter.getUserByAccount({ provider: `other-${unique()}`, providerAccountId: input.providerAccountId })).toBeNull()
    })

    test('getAccount returns null when nothing matches', async () => {
      expect(await adapter.getAccount(unique(), `provider-${unique()}`)).toBeNull()
    })

    test('one user can have several accounts', async () => {
      const owner = await user()
      const a = account(owner.id)
      const b = account(owner.id, { type: 'email' })
      await adapter.linkAccount(a)
      await adapter.linkAccount(b)
      expect((await adapter.getUserByAccount(a))?.id).toBe(owner.id)
      expect((await adapter.getUserByAccount(b))?.id).toBe(owner.id)
    })

    test('linkAccount throws for a (provider, providerAccountId) already linked, even to another user', async () => {
      const first = await user()
      const second = await user()
      const input = account(first.id, { access_token: 'first' })
      await adapter.linkAccount(input)
      await expect(adapter.linkAccount({ ...input, userId: second.id, access_token: 'second' })).rejects.toThrow()
      const stored = await adapter.getAccount(input.providerAccountId, input.provider)
      expect(stored?.userId).toBe(first.id)
      expect(stored?.access_token).toBe('first')
    })

    test('the same providerAccountId under another provider is a different account', async () => {
      const owner = await user()
      const input = account(owner.id)
      await adapter.linkAccount(input)
      const other = { ...input, provider: `provider-${unique()}` }
      await adapter.linkAccount(other)
      expect(await adapter.getAccount(other.providerAccountId, other.provider)).toEqual(other)
    })

    test('linkAccount throws for an unknown user', async () => {
      const input = account(randomUUID())
      await expect(adapter.linkAccount(input)).rejects.toThrow()
      expect(await adapter.getAccount(input.providerAccountId, input.provider)).toBeNull()
    })

    test('unlinkAccount removes the account and keeps the user', async () => {
      const owner = await user()
      const input = account(owner.id)
      await adapter.linkAccount(input)
      await adapter.unlinkAccount({ provider: input.provider, providerAccountId: input.providerAccountId })
      expect(await adapter.getAccount(input.providerAccountId, input.provider)).toBeNull()
      expect(await adapter.getUserByAccount(input)).toBeNull()
      expect((await adapter.getUser(owner.id))?.id).toBe(owner.id)
    })

    test('unlinkAccount of an unknown account does not throw', async () => {
      const result = await adapter.unlinkAccount({ provider: `provider-${unique()}`, providerAccountId: unique() })
      expect(result ?? null).toBeNull()
    })
  })
}
