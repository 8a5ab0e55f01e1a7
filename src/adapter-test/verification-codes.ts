/**
 * One-time email codes (latchkey's optional addition): one code per identifier, a new one
 * replacing the old, each attempt counted atomically, a right code used once, and never more
 * right answers than `maxAttempts` allows, even under concurrency; expired codes purged in
 * bounded batches. Adapters without the methods pass these unchecked (the server then refuses
 * codes at start-up, or purges none).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { later, unique, type Suite } from './fixtures.js'

export function verificationCodeTests(suite: Suite): void {
  describe('one-time email codes', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const keeps = () => typeof adapter.createVerificationCode === 'function' && typeof adapter.useVerificationCode === 'function'
    const newCode = () => ({ identifier: `user-${unique()}@example.test`, code: `hash-${unique()}`, expires: later(1) })

    test('a right code is used once, with its expiry; then there is none', async () => {
      if (!keeps()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      const used = await adapter.useVerificationCode({ identifier: record.identifier, codes: ['hash-wrong', record.code], maxAttempts: 5 })
      expect(used).toEqual({ result: 'used', expires: record.expires })
      expect(await adapter.useVerificationCode({ identifier: record.identifier, codes: [record.code], maxAttempts: 5 })).toEqual({ result: 'none' })
    })

    test('wrong codes count down; past maxAttempts even the right code is refused', async () => {
      if (!keeps()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      const tries = []
      for (let i = 0; i < 3; i++) tries.push(await adapter.useVerificationCode({ identifier: record.identifier, codes: [`hash-${unique()}`], maxAttempts: 3 }))
      expect(tries).toEqual([
        { result: 'wrong', attemptsLeft: 2 },
        { result: 'wrong', attemptsLeft: 1 },
        { result: 'wrong', attemptsLeft: 0 },
      ])
      expect(await adapter.useVerificationCode({ identifier: record.identifier, codes: [record.code], maxAttempts: 3 })).toEqual({ result: 'exhausted' })
    })

    test('a new code replaces the old one and starts its count again', async () => {
      if (!keeps()) return
      const first = newCode()
      await adapter.createVerificationCode(first)
      await adapter.useVerificationCode({ identifier: first.identifier, codes: ['hash-wrong'], maxAttempts: 2 })
      await adapter.useVerificationCode({ identifier: first.identifier, codes: ['hash-wrong'], maxAttempts: 2 })
      const second = { ...first, code: `hash-${unique()}`, expires: later(2) }
      await adapter.createVerificationCode(second)
      expect(await adapter.useVerificationCode({ identifier: first.identifier, codes: [first.code], maxAttempts: 2 })).toEqual({ result: 'wrong', attemptsLeft: 1 })
      expect(await adapter.useVerificationCode({ identifier: first.identifier, codes: [second.code], maxAttempts: 2 })).toEqual({ result: 'used', expires: second.expires })
    })

    test('an unknown identifier has no code; another identifier’s code is not touched', async () => {
      if (!keeps()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      expect(await adapter.useVerificationCode({ identifier: `other-${unique()}@example.test`, codes: [record.code], maxAttempts: 5 })).toEqual({ result: 'none' })
      expect(await adapter.useVerificationCode({ identifier: record.identifier, codes: [record.code], maxAttempts: 1 })).toMatchObject({ result: 'used' })
    })

    test('40 parallel attempts, 20 of them right: at most maxAttempts are judged, exactly one is used', async () => {
      if (!keeps()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => adapter.useVerificationCode({ identifier: record.identifier, codes: [i % 2 ? record.code : `hash-${unique()}`], maxAttempts: 5 })),
      )
      const judged = results.filter((r) => r.result === 'wrong' || r.result === 'used')
      expect(judged.length).toBeLessThanOrEqual(5)
      expect(results.filter((r) => r.result === 'used').length).toBeLessThanOrEqual(1)
      // Every other attempt found the code burned or gone.
      expect(results.every((r) => ['wrong', 'used', 'exhausted', 'none'].includes(r.result))).toBe(true)
    })

    test('50 parallel right answers: exactly one is used', async () => {
      if (!keeps()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      const results = await Promise.all(Array.from({ length: 50 }, () => adapter.useVerificationCode({ identifier: record.identifier, codes: [record.code], maxAttempts: 5 })))
      expect(results.filter((r) => r.result === 'used')).toHaveLength(1)
    })

    test('malformed input is refused with InvalidInput', async () => {
      if (!keeps()) return
      await expect(adapter.createVerificationCode({ identifier: '', code: 'x', expires: later(1) })).rejects.toMatchObject({ code: 'InvalidInput' })
      await expect(adapter.useVerificationCode({ identifier: 'a@b.c', codes: [], maxAttempts: 5 })).rejects.toMatchObject({ code: 'InvalidInput' })
      await expect(adapter.useVerificationCode({ identifier: 'a@b.c', codes: ['x'], maxAttempts: 0 })).rejects.toMatchObject({ code: 'InvalidInput' })
    })

    // Optional: adapters without deleteVerificationCodes pass these unchecked (expired codes then stay).
    const purges = () => keeps() && typeof adapter.deleteVerificationCodes === 'function'
    /** Whether the code is still stored (a right answer uses it, expired or not). */
    const stored = async (record: { identifier: string; code: string }) =>
      (await adapter.useVerificationCode({ identifier: record.identifier, codes: [record.code], maxAttempts: 5 })).result === 'used'

    test('deleteVerificationCodes({ expiredBefore, limit }) deletes at most limit expired codes and no live one', async () => {
      if (!purges()) return
      // Dates long past, so that other tests' codes (all live) are not among them.
      const at = (minutes: number) => new Date(Date.UTC(1990, 0, 1) + minutes * 60_000)
      const expired = [1, 2, 3].map((m) => ({ ...newCode(), expires: at(m) }))
      const live = { ...newCode(), expires: at(5) }
      for (const record of [...expired, live]) await adapter.createVerificationCode(record)
      expect(await adapter.deleteVerificationCodes({ expiredBefore: at(5), limit: 2 })).toBe(2)
      expect(await adapter.deleteVerificationCodes({ expiredBefore: at(5), limit: 100 })).toBe(1)
      expect(await adapter.deleteVerificationCodes({ expiredBefore: at(5) })).toBe(0)
      for (const record of expired) expect(await stored(record)).toBe(false)
      expect(await stored(live)).toBe(true)
    })

    test('deleteVerificationCodes refuses a filter that would delete every code, and a bad limit', async () => {
      if (!purges()) return
      const record = newCode()
      await adapter.createVerificationCode(record)
      const refused = (filter: unknown) => Promise.resolve().then(() => adapter.deleteVerificationCodes(filter as never))
      await expect(refused({})).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/expiredBefore/) })
      await expect(refused({ limit: 5 })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/expiredBefore/) })
      await expect(refused({ expiredBefore: later(2), limit: 0 })).rejects.toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/limit/) })
      expect(await stored(record)).toBe(true)
    })
  })
}
