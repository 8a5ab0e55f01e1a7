/** Verification tokens: each one usable once, even under concurrency. */
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { later, unique, type Suite } from './fixtures.js'

export function verificationTokenTests(suite: Suite): void {
  describe('verification tokens', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })

    test('createVerificationToken returns the token; useVerificationToken returns it once, then null', async () => {
      const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
      const created = await adapter.createVerificationToken(record)
      if (created) expect(created).toEqual(record)
      const used = await adapter.useVerificationToken({ identifier: record.identifier, token: record.token })
      expect(used).toEqual(record)
      expect(used?.expires).toBeInstanceOf(Date)
      expect(used?.expires.getTime()).toBe(record.expires.getTime())
      expect(await adapter.useVerificationToken({ identifier: record.identifier, token: record.token })).toBeNull()
    })

    test('useVerificationToken returns null for an unknown token', async () => {
      expect(await adapter.useVerificationToken({ identifier: `user-${unique()}@example.test`, token: unique() })).toBeNull()
    })

    test('useVerificationToken with the wrong identifier returns null and does not use the token', async () => {
      const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
      await adapter.createVerificationToken(record)
      expect(await adapter.useVerificationToken({ identifier: `other-${unique()}@example.test`, token: record.token })).toBeNull()
      expect(await adapter.useVerificationToken({ identifier: record.identifier, token: `hash-${unique()}` })).toBeNull()
      expect(await adapter.useVerificationToken(record)).toEqual(record)
    })

    test('one identifier can hold several tokens, each used on its own', async () => {
      const identifier = `user-${unique()}@example.test`
      const a = { identifier, token: `hash-${unique()}`, expires: later(1) }
      const b = { identifier, token: `hash-${unique()}`, expires: later(2) }
      await adapter.createVerificationToken(a)
      await adapter.createVerificationToken(b)
      expect(await adapter.useVerificationToken(a)).toEqual(a)
      expect(await adapter.useVerificationToken(b)).toEqual(b)
    })

    test('50 parallel useVerificationToken calls on one token: exactly one wins', async () => {
      const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
      await adapter.createVerificationToken(record)
      const results = await Promise.all(
        Array.from({ length: 50 }, () => adapter.useVerificationToken({ identifier: record.identifier, token: record.token })),
      )
      const winners = results.filter((result) => result !== null)
      expect(winners).toHaveLength(1)
      expect(winners[0]).toEqual(record)
    })
  })
}
