/** What every rate-limit store must do, run against each store with its own clock rules. */
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { RateLimitStore } from '../../src/server/kernel/rate-limit/index.js'

export interface StoreUnderTest {
  store: RateLimitStore
  /**
   * True when the store's window follows the `now` it is given (memory, PostgreSQL). False when it
   * keeps its own clock (Redis): windows are then tested by waiting.
   */
  followsNow: boolean
}

export function runStoreContract(name: string, get: () => StoreUnderTest): void {
  const key = () => `test:${randomUUID()}`
  const t0 = Date.now()

  describe(`${name}: the rate-limit store contract`, () => {
    test('counts hits in one window and answers when it ends', async () => {
      const { store } = get()
      const k = key()
      const first = await store.hit(k, 60, t0)
      expect(first.count).toBe(1)
      expect(first.resetAt).toBeGreaterThanOrEqual(t0 + 59_000)
      expect(first.resetAt).toBeLessThanOrEqual(t0 + 60_000)
      const second = await store.hit(k, 60, t0 + 1000)
      expect(second.count).toBe(2)
      expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThan(1500)
      expect((await store.hit(k, 60, t0 + 2000)).count).toBe(3)
    })

    test('keys count apart', async () => {
      const { store } = get()
      const [a, b] = [key(), key()]
      await store.hit(a, 60, t0)
      await store.hit(a, 60, t0)
      expect((await store.hit(b, 60, t0)).count).toBe(1)
      expect((await store.hit(a, 60, t0)).count).toBe(3)
    })

    test('a hit after the window ends opens a new window at 1', async () => {
      const { store, followsNow } = get()
      const k = key()
      if (followsNow) {
        await store.hit(k, 60, t0)
        await store.hit(k, 60, t0 + 59_999)
        const next = await store.hit(k, 60, t0 + 60_000)
        expect(next).toEqual({ count: 1, resetAt: t0 + 120_000 })
        expect((await store.hit(k, 60, t0 + 60_001)).count).toBe(2)
      } else {
        await store.hit(k, 0.3, Date.now())
        expect((await store.hit(k, 0.3, Date.now())).count).toBe(2)
        await new Promise((resolve) => setTimeout(resolve, 400))
        const now = Date.now()
        const next = await store.hit(k, 0.3, now)
        expect(next.count).toBe(1)
        expect(next.resetAt).toBeGreaterThan(now + 200)
      }
    })

    test('reset forgets a key', async () => {
      const { store } = get()
      const k = key()
      await store.hit(k, 60, t0)
      await store.hit(k, 60, t0)
      await store.reset!(k)
      expect((await store.hit(k, 60, t0)).count).toBe(1)
    })

    test('refund takes one hit back from the open window, and keeps its end', async () => {
      const { store } = get()
      const k = key()
      const first = await store.hit(k, 60, t0)
      await store.hit(k, 60, t0)
      await store.hit(k, 60, t0)
      await store.refund!(k, t0 + 1000)
      const next = await store.hit(k, 60, t0 + 2000)
      expect(next.count).toBe(3)
      expect(Math.abs(next.resetAt - first.resetAt)).toBeLessThan(2500)
    })

    test('refund without an open window changes nothing, and never counts below 0', async () => {
      const { store, followsNow } = get()
      const k = key()
      await store.refund!(k, t0)
      const opened = await store.hit(k, 60, t0)
      expect(opened.count).toBe(1)
      expect(opened.resetAt).toBeGreaterThanOrEqual(t0 + 59_000)
      await store.refund!(k, t0)
      await store.refund!(k, t0)
      expect((await store.hit(k, 60, t0)).count).toBe(1)
      if (followsNow) {
        // The window has ended: the refund belongs to no window, and the next hit opens one at 1.
        await store.hit(k, 60, t0)
        await store.refund!(k, t0 + 60_000)
        expect(await store.hit(k, 60, t0 + 60_000)).toEqual({ count: 1, resetAt: t0 + 120_000 })
      }
    })

    test('100 parallel hits and 50 parallel refunds on one key leave exactly 50', async () => {
      const { store } = get()
      const k = key()
      await Promise.all(Array.from({ length: 100 }, () => store.hit(k, 60, t0)))
      await Promise.all(Array.from({ length: 50 }, () => store.refund!(k, t0)))
      expect((await store.hit(k, 60, t0)).count).toBe(51)
    })

    test('100 parallel hits on one key count exactly 100, each count answered once', async () => {
      const { store } = get()
      const k = key()
      const results = await Promise.all(Array.from({ length: 100 }, () => store.hit(k, 60, t0)))
      expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
      expect(new Set(results.map((r) => Math.round(r.resetAt / 2000))).size).toBeLessThanOrEqual(2)
      expect((await store.hit(k, 60, t0)).count).toBe(101)
    })

    test('refuses a bad key, window or clock reading with a TypeError', async () => {
      const { store } = get()
      await expect(store.hit('', 60, t0)).rejects.toThrow(/non-empty key/)
      await expect(store.hit(key(), 0, t0)).rejects.toThrow(/windowSeconds > 0/)
      await expect(store.hit(key(), 60, Number.NaN)).rejects.toThrow(/now in milliseconds/)
    })
  })
}
