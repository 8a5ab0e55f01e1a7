import { describe, expect, test } from 'vitest'
import { memoryRateLimitStore } from '../../src/server/kernel/rate-limit/index.js'
import { runStoreContract } from './store-contract.js'

const store = memoryRateLimitStore()
runStoreContract('memory', () => ({ store, followsNow: true }))

describe('memory store bounds', () => {
  test('drops expired windows as hits arrive', async () => {
    const s = memoryRateLimitStore()
    for (let i = 0; i < 50; i++) await s.hit(`k${i}`, 1, 0)
    expect(s.size).toBe(50)
    await s.hit('later', 1, 5_000)
    expect(s.size).toBe(1)
  })

  test('never holds more than maxEntries keys; the oldest window goes first', async () => {
    const s = memoryRateLimitStore({ maxEntries: 3 })
    await s.hit('a', 60, 0)
    await s.hit('b', 60, 1)
    await s.hit('c', 60, 2)
    await s.hit('a', 60, 3) // still a's first window: a stays oldest
    await s.hit('d', 60, 4)
    expect(s.size).toBe(3)
    expect((await s.hit('b', 60, 5)).count).toBe(2)
    expect((await s.hit('a', 60, 6)).count).toBe(1) // a was evicted to make room for d
    expect(s.size).toBe(3)
  })

  test('a hundred thousand distinct keys stay within the cap', async () => {
    const s = memoryRateLimitStore({ maxEntries: 1000 })
    for (let i = 0; i < 100_000; i++) await s.hit(`spray-${i}`, 900, i)
    expect(s.size).toBe(1000)
  })

  test('refuses a bad cap', () => {
    expect(() => memoryRateLimitStore({ maxEntries: 0 })).toThrow(/maxEntries >= 1/)
  })
})
