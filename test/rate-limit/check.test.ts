import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { toNodeHandler } from '../../src/node/index.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import {
  accountKey,
  checkRateLimit,
  defaultClientAddress,
  defaultRateLimitRules,
  memoryRateLimitStore,
  RateLimitError,
  RateLimitStoreError,
  resolveRateLimitRules,
  type RateLimitStore,
} from '../../src/server/kernel/rate-limit/index.js'

const t0 = Date.parse('2026-01-01T00:00:00Z')
const rules = defaultRateLimitRules

/** The error of `code` that `run` ends in (the rate limit's refusal unless told); any other (a crash) is thrown on, failing the test. */
async function refusal(run: () => Promise<unknown>, code = 'RateLimited'): Promise<RateLimitError> {
  try {
    await run()
  } catch (error) {
    if (error instanceof AuthError && error.code === code) return error as RateLimitError
    throw error
  }
  throw new Error('expected the request to be refused')
}

describe('checkRateLimit', () => {
  test('email: the sixth request for one address in 15 minutes is refused with 429 and Retry-After', async () => {
    const store = memoryRateLimitStore()
    for (let i = 0; i < 5; i++) await checkRateLimit(store, rules, { action: 'email', account: 'ada@example.com', client: `10.0.0.${i}` }, t0 + i * 1000)
    const error = await refusal(() => checkRateLimit(store, rules, { action: 'email', account: ' ADA@example.com ', client: '10.0.0.9' }, t0 + 60_000))
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.type).toBe('RateLimited')
    expect(error.status).toBe(429)
    expect(error.retryAfter).toBe(14 * 60)
    expect(error.message).toBe('Too many email sign-in requests for this account; try again in 14 minutes')
    // Another address from the same client is still fine, and the window ends on time.
    await checkRateLimit(store, rules, { action: 'email', account: 'lin@example.com', client: '10.0.0.9' }, t0 + 60_000)
    await checkRateLimit(store, rules, { action: 'email', account: 'ada@example.com', client: '10.0.0.9' }, t0 + 15 * 60_000)
  })

  test('email: one client is refused after 20 requests for different addresses', async () => {
    const store = memoryRateLimitStore()
    for (let i = 0; i < 20; i++) await checkRateLimit(store, rules, { action: 'email', account: `u${i}@example.com`, client: '192.0.2.1' }, t0)
    const error = await refusal(() => checkRateLimit(store, rules, { action: 'email', account: 'new@example.com', client: '192.0.2.1' }, t0 + 1000))
    expect(error.message).toMatch(/from this network address/)
    expect(error.retryAfter).toBe(15 * 60 - 1)
  })

  test('credentials: failures count, 10 per account and client, 100 per account; a success is taken back', async () => {
    const store = memoryRateLimitStore()
    const guess = (client: string, account = 'ada') => checkRateLimit(store, rules, { action: 'credentials', account, client }, t0)
    for (let i = 0; i < 10; i++) await guess('198.51.100.1')
    const error = await refusal(() => guess('198.51.100.1', ' ADA'))
    expect(error.message).toBe('Too many sign-in attempts for this account from this network address; try again in 15 minutes')
    // A success from another address is taken back: it never adds up.
    for (let i = 0; i < 20; i++) await (await guess('198.51.100.2')).succeeded()
    // 10 failures so far; 90 more from nine other addresses reach the ceiling.
    for (let a = 3; a < 12; a++) for (let i = 0; i < 10; i++) await guess(`198.51.100.${a}`)
    expect((await refusal(() => guess('198.51.100.99'))).message).toMatch(/^Too many sign-in attempts for this account;/)
    await guess('198.51.100.99', 'grace')
  })

  test('credentials: 30 attempts per client, successes included; passkey options: 30 per client per minute', async () => {
    const store = memoryRateLimitStore()
    for (let i = 0; i < 30; i++) await (await checkRateLimit(store, rules, { action: 'credentials', account: `user${i}`, client: '198.51.100.1' }, t0)).succeeded()
    await expect(checkRateLimit(store, rules, { action: 'credentials', account: 'new', client: '198.51.100.1' }, t0)).rejects.toThrow(/sign-in attempts from this network address/)
    for (let i = 0; i < 30; i++) await checkRateLimit(store, rules, { action: 'passkeyOptions', client: '203.0.113.7' }, t0)
    const error = await refusal(() => checkRateLimit(store, rules, { action: 'passkeyOptions', client: '203.0.113.7' }, t0 + 500))
    expect(error.retryAfter).toBe(60)
    expect(error.message).toBe('Too many passkey requests from this network address; try again in 60 seconds')
  })

  test('a refused attempt takes its failure hits back; succeeded() refunds once only', async () => {
    const store = memoryRateLimitStore()
    const only = { ...rules, credentials: [{ per: 'account' as const, limit: 2, windowSeconds: 60, counts: 'failures' as const }] }
    const attempt = () => checkRateLimit(store, only, { action: 'credentials', account: 'ada' }, t0)
    const first = await attempt()
    await attempt()
    for (let i = 0; i < 5; i++) await refusal(attempt)
    await first.succeeded()
    await first.succeeded()
    await attempt() // the count is back at 2: one refund, and no refused attempt stayed counted
    await refusal(attempt)
  })

  test('several accounts are each counted; Unicode compatibility forms share a count', async () => {
    const store = memoryRateLimitStore()
    const only = { ...rules, credentials: [{ per: 'account' as const, limit: 3, windowSeconds: 60 }] }
    for (let i = 0; i < 3; i++) await checkRateLimit(store, only, { action: 'credentials', account: [`junk${i}`, 'carol@example.com'] }, t0)
    await expect(checkRateLimit(store, only, { action: 'credentials', account: 'ｃａｒｏｌ@example.com' }, t0)).rejects.toThrow(/for this account/)
    await checkRateLimit(store, only, { action: 'credentials', account: ['junk0', 'JUNK0 '] }, t0) // one account, counted once: 2
    await checkRateLimit(store, only, { action: 'credentials', account: 'junk0' }, t0)
    await expect(checkRateLimit(store, only, { action: 'credentials', account: 'junk0' }, t0)).rejects.toThrow(/for this account/)
  })

  test('a store without refund is refused for rules that count failures', async () => {
    const store: RateLimitStore = { hit: async () => ({ count: 1, resetAt: t0 + 1 }) }
    await expect(checkRateLimit(store, rules, { action: 'credentials', account: 'ada' }, t0)).rejects.toThrow('checkRateLimit: the credentials rules count failures, which needs a store with refund(key, now)')
    await checkRateLimit(store, rules, { action: 'email', account: 'ada@example.com' }, t0)
  })

  test('per-client rules without a client are skipped, not lumped together; per account and client, it is one client per account', async () => {
    const store = memoryRateLimitStore()
    for (let i = 0; i < 100; i++) await checkRateLimit(store, rules, { action: 'email', account: `user${i}@example.com`, client: null }, t0)
    expect(store.size).toBe(100)
    const guess = () => checkRateLimit(store, rules, { action: 'credentials', account: 'ada', client: null }, t0)
    for (let i = 0; i < 10; i++) await guess()
    await expect(guess()).rejects.toThrow(/for this account from this network address/)
    await checkRateLimit(store, rules, { action: 'credentials', account: 'grace', client: null }, t0)
  })

  test('keys hold a hash of the account, never the address in clear', async () => {
    const keys: string[] = []
    const store: RateLimitStore = { hit: async (key) => (keys.push(key), { count: 1, resetAt: t0 + 1 }) }
    await checkRateLimit(store, rules, { action: 'email', account: 'Ada@Example.com', client: '::1' }, t0)
    expect(keys.sort()).toEqual([await accountKey('email', 900, 'ada@example.com'), 'email:client:900:::1'].sort())
    expect(keys.join()).not.toMatch(/example/i)
  })

  test('a failing store throws RateLimitStoreError: the cause kept for the log, the key named nowhere (enforceRateLimit decides what the request meets)', async () => {
    const store: RateLimitStore = { hit: async () => Promise.reject(new Error('connection refused')) }
    const error = await checkRateLimit(store, rules, { action: 'email', account: 'ada@example.com', client: '::1' }, t0).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RateLimitStoreError)
    expect((error as RateLimitStoreError).status).toBe(503)
    expect((error as Error).message).toBe('The rate-limit store failed: connection refused')
    expect(((error as Error).cause as Error).message).toBe('connection refused')
  })

  test('a failing refund throws RateLimitStoreError too', async () => {
    const store: RateLimitStore = { hit: async () => ({ count: 1, resetAt: t0 + 1 }), refund: async () => Promise.reject(new Error('reset by peer')) }
    const attempt = await checkRateLimit(store, rules, { action: 'credentials', account: 'ada', client: '::1' }, t0)
    const error = await attempt.succeeded().then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RateLimitStoreError)
    expect(((error as Error).cause as Error).message).toBe('reset by peer')
  })
})

describe('rules', () => {
  test('the defaults are the ones documented', () => {
    expect(defaultRateLimitRules).toEqual({
      email: [
        { per: 'account', limit: 5, windowSeconds: 900 },
        { per: 'client', limit: 20, windowSeconds: 900 },
      ],
      emailCode: [
        { per: 'account', limit: 30, windowSeconds: 900 },
        { per: 'client', limit: 30, windowSeconds: 900 },
      ],
      credentials: [
        { per: 'account+client', limit: 10, windowSeconds: 900, counts: 'failures' },
        { per: 'account', limit: 100, windowSeconds: 900, counts: 'failures' },
        { per: 'client', limit: 30, windowSeconds: 900 },
      ],
      passkeyOptions: [{ per: 'client', limit: 30, windowSeconds: 60 }],
    })
  })

  test('an override replaces one action whole; an empty list turns it off', () => {
    const resolved = resolveRateLimitRules({ credentials: [{ per: 'account', limit: 3, windowSeconds: 60 }], passkeyOptions: [] })
    expect(resolved.credentials).toEqual([{ per: 'account', limit: 3, windowSeconds: 60 }])
    expect(resolved.passkeyOptions).toEqual([])
    expect(resolved.email).toBe(defaultRateLimitRules.email)
  })

  test('bad rules are refused, naming the rule', () => {
    expect(() => resolveRateLimitRules({ oauth: [] } as never)).toThrow('rateLimit.rules: unknown action "oauth"; expected one of email, emailCode, credentials, passkeyOptions')
    expect(() => resolveRateLimitRules({ email: [{ per: 'ip', limit: 1, windowSeconds: 1 } as never] })).toThrow('rateLimit.rules.email[0]: expected per "account", "client" or "account+client", got "ip"')
    expect(() => resolveRateLimitRules({ credentials: [{ per: 'client', limit: 1, windowSeconds: 1, counts: 'errors' as never }] })).toThrow(
      'rateLimit.rules.credentials[0]: expected counts "attempts" or "failures", got "errors"',
    )
    expect(() => resolveRateLimitRules({ email: [{ per: 'account', limit: 1, windowSeconds: 1, counts: 'failures' }] })).toThrow(
      'rateLimit.rules.email[0]: counts "failures" applies only to credentials rules',
    )
    expect(() => resolveRateLimitRules({ email: [{ per: 'client', limit: 0, windowSeconds: 1 }] })).toThrow(/email\[0\]: expected limit/)
    expect(() => resolveRateLimitRules({ email: [{ per: 'client', limit: 1, windowSeconds: -1 }] })).toThrow(/email\[0\]: expected windowSeconds > 0/)
    expect(() =>
      resolveRateLimitRules({
        email: [
          { per: 'client', limit: 1, windowSeconds: 60 },
          { per: 'client', limit: 2, windowSeconds: 60 },
        ],
      }),
    ).toThrow(/same thing over the same window/)
  })
})

describe('the client address', () => {
  const request = (xff?: string) => new Request('http://localhost/auth/signin/email', { headers: xff ? { 'x-forwarded-for': xff } : {} })

  test('X-Forwarded-For is ignored unless trustProxy is set', async () => {
    expect(await defaultClientAddress()(request('1.2.3.4'))).toBeNull()
    expect(await defaultClientAddress(true)(request(' 1.2.3.4 , 10.0.0.1'))).toBe('1.2.3.4')
  })

  test('trustProxy: n takes the n-th entry from the right, past what the client wrote', async () => {
    expect(await defaultClientAddress(1)(request('6.6.6.6, 1.2.3.4'))).toBe('1.2.3.4')
    expect(await defaultClientAddress(2)(request('6.6.6.6, 1.2.3.4, 10.0.0.1'))).toBe('1.2.3.4')
    expect(await defaultClientAddress(3)(request('1.2.3.4'))).toBeNull()
    expect(() => defaultClientAddress(0)).toThrow(/number of proxies >= 1/)
  })

  test('the node binding gives the socket address; a forged header does not count', async () => {
    const seen: Array<string | null | undefined> = []
    const server = createServer(
      toNodeHandler(async (req) => {
        seen.push(await defaultClientAddress()(req))
        return new Response('ok')
      }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      await (await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': '6.6.6.6', 'x-latchkey-client-address': '6.6.6.6' } })).text()
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
    expect(seen).toEqual(['127.0.0.1'])
  })

  /** Requests through the node binding on loopback, with a public Host as a proxy passes it on; the address each read. */
  async function throughNode(read: ReturnType<typeof defaultClientAddress>, headers: Array<Record<string, string>>): Promise<Array<string | null>> {
    const seen: Array<string | null> = []
    const server = createServer(toNodeHandler(async (req) => (seen.push((await read(req)) ?? null), new Response('ok'))))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      for (const h of headers) {
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { host: 'app.example.com', ...h } }, (res) => res.resume().on('end', resolve))
          req.on('error', reject).end()
        })
      }
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
    return seen
  }

  test('a proxy in front with trustProxy off is warned about once; with trustProxy set, or no proxy, nothing', async () => {
    const warned: string[] = []
    const proxied = { 'x-forwarded-for': '203.0.113.7' }
    expect(await throughNode(defaultClientAddress(false, (m) => warned.push(m)), [proxied, proxied, { 'x-forwarded-for': '198.51.100.2' }])).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1'])
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/^RateLimitBehindProxy: the requests come from 127\.0\.0\.1 with X-Forwarded-For set.*Set rateLimit\.trustProxy/)
    // The words name no header value: what a client wrote stays out of the log.
    expect(warned[0]).not.toContain('203.0.113.7')

    const quiet: string[] = []
    expect(await throughNode(defaultClientAddress(1, (m) => quiet.push(m)), [proxied])).toEqual(['203.0.113.7'])
    expect(await throughNode(defaultClientAddress(false, (m) => quiet.push(m)), [{}])).toEqual(['127.0.0.1'])
    // A dev proxy on localhost (Vite's, say): nothing to say.
    expect(await throughNode(defaultClientAddress(false, (m) => quiet.push(m)), [{ ...proxied, host: 'localhost:5173' }])).toEqual(['127.0.0.1'])
    expect(quiet).toEqual([])
  })

  test('requests that carry no address (a Web handler outside the node binding) are warned about once, on a host that is not loopback', async () => {
    const warned: string[] = []
    const read = defaultClientAddress(false, (m) => warned.push(m))
    const at = (url: string) => new Request(url, { headers: { 'x-forwarded-for': '1.2.3.4' } })
    // Development and tests: one unknown client on localhost is the normal case.
    expect(await read(at('http://localhost:3000/auth/session'))).toBeNull()
    expect(await read(at('http://127.0.0.1:8080/auth/session'))).toBeNull()
    expect(warned).toEqual([])
    expect(await read(at('https://app.example.com/auth/session'))).toBeNull()
    expect(await read(at('https://app.example.com/auth/signin/email'))).toBeNull()
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/^RateLimitNoClientAddress: per-client rate limits are off.*Pass rateLimit\.getClientAddress/)
    expect(warned[0]).not.toContain('1.2.3.4')
  })

  test('Latchkey logs it through its logger, once, on the first request that shows it', async () => {
    const warnings: string[] = []
    const auth = Latchkey({
      secret: 'a-rate-limit-test-secret-of-32-chars!!',
      origin: 'https://app.example.com',
      adapter: MemoryAdapter(),
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null })],
      logger: { error: () => {}, warn: (m: string) => warnings.push(m), debug: () => {} },
    })
    const jar = new Jar(auth, 'https://app.example.com')
    for (let i = 0; i < 2; i++) await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'u', password: 'p' })
    expect(warnings.filter((w) => w.startsWith('RateLimitNoClientAddress'))).toHaveLength(1)
  })
})
