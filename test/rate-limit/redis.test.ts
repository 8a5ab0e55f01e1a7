/** The Redis store against a live Redis (REDIS_URL), through ioredis. */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { redisRateLimitStore, type RedisRateLimitStore } from '../../src/adapters/redis-rate-limit.js'
import { needsService } from '../support/needs-service.js'
import { runStoreContract } from './store-contract.js'

const url = needsService('REDIS_URL', 'Redis rate-limit suite', 'redis://127.0.0.1:6379', 'test/rate-limit')
if (url) {
  describe('Redis', () => {
    const prefix = `latchkey-test:${randomUUID()}:`
    let client: Redis
    let store: RedisRateLimitStore
    beforeAll(() => {
      client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 })
      // A generous timeout: this suite is about counting, on a machine that may be busy (the timeout's own tests: redis-faults.test.ts).
      store = redisRateLimitStore(client, { prefix, timeout: 10_000 })
    })
    afterAll(async () => {
      const keys = await client.keys(`${prefix}*`)
      if (keys.length) await client.del(...keys)
      client.disconnect()
    })
    runStoreContract('redis store', () => ({ store, followsNow: false }))

    test('the key carries the window as its expiry, and the prefix', async () => {
      await store.hit('ttl', 60, Date.now())
      const ttl = await client.pttl(`${prefix}ttl`)
      expect(ttl).toBeGreaterThan(58_000)
      expect(ttl).toBeLessThanOrEqual(60_000)
    })

    test('a key left without an expiry gets one instead of counting forever', async () => {
      await client.set(`${prefix}stuck`, '7')
      const hit = await store.hit('stuck', 60, 0)
      expect(hit).toEqual({ count: 8, resetAt: 60_000 })
      expect(await client.pttl(`${prefix}stuck`)).toBeGreaterThan(0)
    })

    test('a value that is not a number fails with a message naming Redis', async () => {
      await client.set(`${prefix}text`, 'abc', 'PX', 60_000)
      await expect(store.hit('text', 60, 0)).rejects.toThrow(/Redis refused the hit: .*not an integer/)
    })

    test('two clients (two servers) share one count', async () => {
      const second = new Redis(url)
      try {
        const other = redisRateLimitStore(second, { prefix, timeout: 10_000 })
        const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).hit('shared', 60, Date.now())))
        expect(Math.max(...hits.map((h) => h.count))).toBe(40)
      } finally {
        second.disconnect()
      }
    })
  })
}
