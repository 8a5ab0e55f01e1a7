/** The contract's uniqueness rules under concurrent writes. */
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter, AdapterUser } from '../core/types.js'
import { account, newUser, unique, type Suite } from './fixtures.js'

export function concurrencyTests(suite: Suite): void {
  describe('concurrency', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    test('20 parallel createUser calls with one email: exactly one user exists, the others reject', async () => {
      const email = `race-${unique()}@example.test`
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => adapter.createUser(newUser({ email }))))
      const fulfilled = results.filter((r): r is PromiseFulfilledResult<AdapterUser> => r.status === 'fulfilled')
      expect(fulfilled).toHaveLength(1)
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(19)
      expect((await adapter.getUserByEmail(email))?.id).toBe(fulfilled[0]!.value.id)
    })

    test('10 parallel updateAccount calls comparing on one refresh token: exactly one wins', async () => {
      const owner = await user()
      const input = account(owner.id, { refresh_token: 'r0' })
      await adapter.linkAccount(input)
      const key = { provider: input.provider, providerAccountId: input.providerAccountId }
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => adapter.updateAccount({ ...key, access_token: `a${i}`, refresh_token: `r${i + 1}` }, { ifRefreshToken: 'r0' })),
      )
      const winners = results.filter((r) => r !== null)
      expect(winners).toHaveLength(1)
      expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(winners[0])
    })

    test('parallel linkAccount calls for one (provider, providerAccountId): exactly one links', async () => {
      const owners = await Promise.all(Array.from({ length: 5 }, () => user()))
      const shared = account(owners[0]!.id)
      const results = await Promise.allSettled(owners.map((owner) => adapter.linkAccount({ ...shared, userId: owner.id })))
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const winner = owners[results.findIndex((r) => r.status === 'fulfilled')]!
      expect((await adapter.getUserByAccount(shared))?.id).toBe(winner.id)
    })
  })
}
