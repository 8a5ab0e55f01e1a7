import { describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { PostgresAdapter } from '../../src/adapters/postgres/index.js'
import {
  defaultRateLimitRules,
  enforceRateLimit,
  memoryRateLimitStore,
  RateLimitError,
  RateLimitStoreUnavailable,
  resolveRateLimit,
  type RateLimitStore,
} from '../../src/server/kernel/rate-limit/index.js'
import { postgresRateLimitStore } from '../../src/adapters/postgres/rate-limit-store.js'
import { Latchkey } from '../../src/server/index.js'
import { testSecret } from '../support/server.js'

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

describe('when the store cannot count (rateLimit.whenStoreFails)', () => {
  /** A store that fails while `down` is set, and the log lines it leads to. */
  function failing() {
    const memory = memoryRateLimitStore()
    const state = { down: true }
    const fail = () => Promise.reject(new Error('redisRateLimitStore: Redis did not answer the hit within 200 ms'))
    const store: RateLimitStore = {
      hit: (key, windowSeconds, now) => (state.down ? fail() : memory.hit(key, windowSeconds, now)),
      refund: (key, now) => (state.down ? fail() : memory.refund(key, now)),
    }
    const logs: string[] = []
    const logger = { error: (e: Error) => void logs.push(`error ${e.name}: ${e.message}`), warn: (c: string) => void logs.push(`warn ${c}`), debug: () => {} }
    return { store, state, logs, logger }
  }
  const request = new Request('http://localhost/auth/callback/credentials')

  test('guesses fail closed with a 503 StoreUnavailable and Retry-After; an email goes on uncounted; the outage is logged once, without the address', async () => {
    const { store, logs, logger } = failing()
    const limits = resolveRateLimit({ store, getClientAddress: () => '192.0.2.5' }, undefined, {}, logger)!
    expect(limits.whenStoreFails).toEqual({ email: 'open', emailCode: 'closed', credentials: 'closed', passkeyOptions: 'closed' })
    for (const action of ['credentials', 'emailCode', 'passkeyOptions']) {
      const error = await enforceRateLimit(limits, request, action, 'ada@example.com', t0).catch((e) => e)
      expect(error).toBeInstanceOf(RateLimitStoreUnavailable)
      expect(error).toMatchObject({ code: 'StoreUnavailable', status: 503, retryAfter: 3 })
    }
    const words = await enforceRateLimit(limits, request, 'credentials', 'ada@example.com', t0).catch((e) => e.message)
    expect(words).toBe('The server cannot count sign-in attempts right now, so it takes none; try again in 3 seconds')
    const sent = await enforceRateLimit(limits, request, 'email', 'ada@example.com', t0)
    await sent.succeeded()
    expect(logs).toEqual([
      'error StoreUnavailable: The rate-limit store failed: redisRateLimitStore: Redis did not answer the hit within 200 ms. Until it answers again: 503 StoreUnavailable for emailCode, credentials, passkeyOptions; uncounted for email (rateLimit.whenStoreFails)',
    ])
    expect(logs.join()).not.toMatch(/ada|example/)
  })

  test('the store answering again ends the outage, said once; the next outage is said again', async () => {
    const { store, state, logs, logger } = failing()
    const limits = resolveRateLimit({ store, getClientAddress: () => '192.0.2.5' }, undefined, {}, logger)!
    for (let i = 0; i < 3; i++) await enforceRateLimit(limits, request, 'email', 'a@example.com', t0)
    state.down = false
    for (let i = 0; i < 3; i++) await enforceRateLimit(limits, request, 'email', 'a@example.com', t0)
    expect(limits.outage.down).toBe(false)
    state.down = true
    await enforceRateLimit(limits, request, 'email', 'a@example.com', t0)
    expect(logs.map((line) => line.split(':')[0])).toEqual(['error StoreUnavailable', 'warn StoreAvailable', 'error StoreUnavailable'])
    expect(logs[1]).toBe('warn StoreAvailable: the rate-limit store answers again, after 3 requests it could not count; the limits count again')
  })

  test('a refund the store cannot take fails no sign-in: the password was right', async () => {
    const { store, state, logs, logger } = failing()
    state.down = false
    const limits = resolveRateLimit({ store, getClientAddress: () => '192.0.2.5' }, undefined, {}, logger)!
    const attempt = await enforceRateLimit(limits, request, 'credentials', 'ada@example.com', t0)
    state.down = true
    await attempt.succeeded()
    expect(limits.outage.down).toBe(true)
    expect(logs).toHaveLength(1)
  })

  test('per action in the configuration, and a plugin says its own (closed unless it says open)', async () => {
    const { store, logger } = failing()
    const registered = {
      waitlist: { label: 'waitlist requests', rules: [{ per: 'client' as const, limit: 5, windowSeconds: 60 }] },
      ping: { label: 'pings', rules: [{ per: 'client' as const, limit: 5, windowSeconds: 60 }], whenStoreFails: 'open' as const },
    }
    const limits = resolveRateLimit({ store, getClientAddress: () => '192.0.2.5', whenStoreFails: { email: 'closed', credentials: 'open', ping: 'closed' } }, undefined, registered, logger)!
    expect(limits.whenStoreFails).toEqual({ email: 'closed', emailCode: 'closed', credentials: 'open', passkeyOptions: 'closed', waitlist: 'closed', ping: 'closed' })
    await enforceRateLimit(limits, request, 'credentials', 'ada@example.com', t0)
    const refused = await enforceRateLimit(limits, request, 'waitlist', null, t0).catch((e) => e)
    expect(refused.message).toBe('The server cannot count waitlist requests right now, so it takes none; try again in 3 seconds')
    expect(resolveRateLimit({ store }, undefined, registered, logger)!.whenStoreFails).toMatchObject({ waitlist: 'closed', ping: 'open' })
  })

  test('a bad policy is a Configuration error at start-up that says what was expected', () => {
    const start = (whenStoreFails: unknown, registered = {}) => () => resolveRateLimit({ whenStoreFails: whenStoreFails as never }, undefined, registered)
    expect(start({ credentials: 'fail-open' })).toThrow('rateLimit.whenStoreFails.credentials: expected "open" (the request goes on uncounted) or "closed" (503 StoreUnavailable), got "fail-open"')
    expect(start({ credentials: true })).toThrow('got a boolean')
    expect(start({ signin: 'open' })).toThrow('rateLimit.whenStoreFails: unknown action "signin"; expected one of email, emailCode, credentials, passkeyOptions')
    expect(start('open')).toThrow('rateLimit.whenStoreFails: expected an object of action: "open" | "closed", got "open"')
    expect(start(['credentials'])).toThrow('got a list')
    const plugin = { ping: { label: 'pings', rules: [], whenStoreFails: 'sometimes' } }
    expect(start(undefined, plugin)).toThrow('rate-limit action ping: whenStoreFails: expected "open" (the request goes on uncounted) or "closed" (503 StoreUnavailable), got "sometimes"')
    // At start-up, as a Configuration error.
    expect(() => Latchkey({ secret: testSecret, providers: [], rateLimit: { whenStoreFails: { credentials: 'x' as never } } })).toThrow(
      expect.objectContaining({ code: 'Configuration', message: expect.stringContaining('rateLimit.whenStoreFails.credentials: expected "open"') }),
    )
  })
})
