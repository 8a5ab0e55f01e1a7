import { describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { PostgresAdapter } from '../../src/adapters/postgres/index.js'
import {
  defaultRateLimitRules,
  enforceRateLimit,
  memoryRateLimitStore,
  RateLimitError,
  resolveRateLimit,
} from '../../src/server/kernel/rate-limit/index.js'
import { postgresRateLimitStore } from '../../src/adapters/postgres/rate-limit-store.js'

const t0 = Date.parse('2026-01-01T00:00:00Z')

describe('resolveRateLimit', () => {
  test('false turns limits off, and enforce is then a no-op', async () => {
    expect(resolveRateLimit(false)).toBeNull()
    await enforceRateLimit(null, new Request('http://localhost/'), 'email', 'a@b.c', t0)
  })

  test('defaults: memory store without an SQL adapter, the default rules, no address without a proxy setting', async () => {
    const limits = resolveRateLimit(undefined, MemoryAdapter())!
    expect(limits.rules).toEqual(defaultRateLimitRules)
    expect(await limits.store.hit('k', 60, t0)).toEqual({ count: 1, resetAt: t0 + 60_000 })
    expect(await limits.getClientAddress(new Request('http://localhost/', { headers: { 'x-forwarded-for': '1.2.3.4' } }))).toBeNull()
    expect(await resolveRateLimit({ trustProxy: true })!.getClientAddress(new Request('http://localhost/', { headers: { 'x-forwarded-for': '1.2.3.4' } }))).toBe('1.2.3.4')
  })

  test("with an SQL adapter the default store is that adapter's database", async () => {
    const queries: string[] = []
    // A database where migration 2 has not run, as PostgreSQL answers it.
    const missingTable = Object.assign(new Error('relation "rate_limits" does not exist'), { code: '42P01' })
    const adapter = PostgresAdapter({ query: async (sql: string) => (queries.push(sql), Promise.reject(missingTable)) })
    const limits = resolveRateLimit({}, adapter)!
    // Not migrated: the store says what to do.
    await expect(limits.store.hit('k', 60, t0)).rejects.toThrow(/the rate_limits table is missing; bring the schema to version 2 with `latchkey migrate`/)
    expect(queries.at(-1)).toMatch(/INSERT INTO rate_limits/)
  })

  test('a given store, rules and address function are used as given; bad ones are refused', async () => {
    const store = memoryRateLimitStore()
    const limits = resolveRateLimit({ store, rules: { email: [{ per: 'client', limit: 1, windowSeconds: 60 }] }, getClientAddress: () => '10.1.1.1' })!
    const request = new Request('http://localhost/auth/signin/email')
    await enforceRateLimit(limits, request, 'email', 'a@example.com', t0)
    const error = await enforceRateLimit(limits, request, 'email', 'b@example.com', t0 + 1000).catch((e) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfter).toBe(59)
    expect(() => resolveRateLimit({ store: {} as never })).toThrow(/rateLimit.store: expected an object with hit/)
    expect(() => resolveRateLimit({ getClientAddress: 'x-real-ip' as never })).toThrow(/rateLimit.getClientAddress: expected a function/)
    expect(() => resolveRateLimit({ rules: { email: [{ per: 'client', limit: 0, windowSeconds: 60 }] } })).toThrow(/email\[0\]/)
  })

  test('a given store that cannot refund is refused while a rule counts failures', () => {
    const hitOnly = { hit: async () => ({ count: 1, resetAt: t0 }) }
    expect(() => resolveRateLimit({ store: hitOnly })).toThrow('rateLimit.store: the rules count failed sign-ins, which needs refund(key, now) on the store')
    const attemptsOnly = { credentials: [{ per: 'account' as const, limit: 10, windowSeconds: 900 }] }
    expect(resolveRateLimit({ store: hitOnly, rules: attemptsOnly })!.store).toBe(hitOnly)
  })

  test('postgresRateLimitStore refuses what is not a database', () => {
    expect(() => postgresRateLimitStore(42)).toThrow(/expected a pg Pool/)
  })
})
