/**
 * The Redis store through a Redis outage (issue 46, item 2), against a Redis of the test's own
 * (`redis-server` on port 6390, no persistence), killed mid-run and started again: sign-in
 * guesses answer 503 StoreUnavailable within a bound, never hang; session reads and email links
 * go on; the outage is logged once; the client reconnects by itself and the limits count again,
 * from zero (nothing was kept, and nothing tried during the outage is counted after it).
 */
import type { ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { redisRateLimitStore } from '../../src/adapters/redis-rate-limit.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import type { SendVerificationRequestParams } from '../../src/core/types.js'
import { Jar } from '../support/jar.js'
import { startRedis, stopRedis } from '../support/redis-server.js'
import { testSecret } from '../support/server.js'

const port = 6390
const asJson = { 'x-auth-return-redirect': '1' }

/** The answer and how long this one request took. */
async function timed(request: () => Promise<Response>): Promise<{ response: Response; ms: number }> {
  const started = performance.now()
  const response = await request()
  return { response, ms: performance.now() - started }
}

describe('the Redis store while Redis is down', () => {
  let redis: ChildProcess | undefined
  let client: Redis
  const logs: string[] = []
  const outbox: SendVerificationRequestParams[] = []
  const store = () => redisRateLimitStore(client, { prefix: `latchkey-faults:${randomUUID()}:` })
  let limits: ReturnType<typeof store>
  let handler: ReturnType<typeof Latchkey>

  beforeAll(async () => {
    redis = await startRedis(port)
    // As the configuration guide makes it: ioredis's defaults, which queue commands while reconnecting.
    client = new Redis(`redis://127.0.0.1:${port}`)
    // As an app does, or ioredis prints each failed reconnection as an unhandled error event.
    client.on('error', () => {})
    // The subject is an outage, not the first connection: start once the client is ready.
    await new Promise((resolve) => client.once('ready', resolve))
    limits = store()
    handler = Latchkey({
      secret: testSecret,
      adapter: MemoryAdapter(),
      logger: { error: (e) => void logs.push(`error ${e.name}: ${e.message}`), warn: (c) => void logs.push(`warn ${c}`), debug: () => {} },
      providers: [
        Credentials({ credentials: { email: {}, password: { type: 'password' } }, authorize: (c) => (c.password === 'right' ? { id: `u-${c.email}`, email: String(c.email) } : null) }),
        Email({ sendVerificationRequest: (p) => void outbox.push(p) }),
      ],
      rateLimit: {
        store: limits,
        getClientAddress: () => '192.0.2.1',
        rules: { credentials: [{ per: 'account+client', limit: 3, windowSeconds: 600, counts: 'failures' }] },
      },
    })
  })
  afterAll(async () => {
    client?.disconnect()
    await stopRedis(redis)
  })

  /** The log without the warning each refused sign-in gets (a wrong password, a limit). */
  const told = () => logs.filter((line) => !/^warn (CredentialsSignin|RateLimited):/.test(line))
  /** A sign-in, timed from its POST (the CSRF token is fetched before). */
  const signIn = async (jar: Jar, email: string, password: string) => {
    const csrfToken = await jar.csrf()
    return timed(() => jar.postForm('/auth/callback/credentials', { csrfToken, email, password }, asJson))
  }

  test('guesses answer 503 StoreUnavailable at once, reads and email links go on, the outage is logged once; back, the limits count again from zero', async () => {
    const ada = new Jar(handler)
    expect((await signIn(ada, 'ada@example.com', 'right')).response.status).toBe(200)
    expect((await ada.session()).user.email).toBe('ada@example.com')
    const eve = new Jar(handler)
    for (let i = 0; i < 2; i++) expect((await signIn(eve, 'grace@example.com', 'wrong')).response.status).toBe(401)
    expect(told()).toEqual([])

    await stopRedis(redis)
    const during = []
    for (let i = 0; i < 5; i++) during.push(await signIn(eve, 'grace@example.com', 'wrong'))
    during.push(await signIn(new Jar(handler), 'lin@example.com', 'right'))
    for (const { response, ms } of during) {
      expect(ms).toBeLessThan(1000)
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('3')
      expect(await response.json()).toEqual({ error: 'StoreUnavailable', url: 'http://localhost:3000/auth/error?error=StoreUnavailable' })
    }
    // Session reads never touch the store; an email link is sent uncounted (email fails open).
    const read = await timed(() => ada.get('/auth/session'))
    expect(read.ms).toBeLessThan(1000)
    expect((await read.response.json()).user.email).toBe('ada@example.com')
    const mailer = new Jar(handler)
    const csrfToken = await mailer.csrf()
    const link = await timed(() => mailer.postForm('/auth/signin/email', { csrfToken, email: 'mail@example.com' }, asJson))
    expect(link.ms).toBeLessThan(1000)
    expect(link.response.status).toBe(200)
    expect(outbox.map((m) => m.identifier)).toEqual(['mail@example.com'])
    // One line for the whole outage, naming the policy, never an address.
    expect(told()).toHaveLength(1)
    expect(told()[0]).toMatch(/^error StoreUnavailable: The rate-limit store failed: redisRateLimitStore: Redis did not answer the hit within 200 ms .*Until it answers again: 503 StoreUnavailable for emailCode, credentials, passkeyOptions, emailChange; uncounted for email \(rateLimit\.whenStoreFails\)$/)
    expect(logs.join('\n')).not.toMatch(/example\.com|grace|lin@/)

    redis = await startRedis(port)
    // ioredis reconnects by itself: wait until the store answers again.
    const deadline = Date.now() + 20_000
    for (;;) {
      const answered = await limits.hit('probe', 1, Date.now()).then(() => true, () => false)
      if (answered) break
      if (Date.now() > deadline) throw new Error('the store did not answer within 20 s of Redis starting again')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // The Redis kept nothing: the two failures before are gone, and the five during the outage
    // were never sent, so three more are allowed before the limit, as on a fresh window.
    for (let i = 0; i < 3; i++) expect((await signIn(eve, 'grace@example.com', 'wrong')).response.status).toBe(401)
    const refused = (await signIn(eve, 'grace@example.com', 'wrong')).response
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ error: 'RateLimited' })
    expect((await signIn(new Jar(handler), 'lin@example.com', 'right')).response.status).toBe(200)
    // Six sign-ins and one email link.
    expect(told().slice(1)).toEqual([expect.stringMatching(/^warn StoreAvailable: the rate-limit store answers again, after 7 requests it could not count/)])
  })
})

describe('the Redis store on a client that does not answer', () => {
  /** An ioredis look-alike: `status` and 'ready' events; its MULTI answers when `answer` says. */
  function fakeClient(status: string, answer: () => Promise<Array<[null, unknown]>>) {
    const sent: string[] = []
    const client = Object.assign(new EventEmitter(), {
      status,
      multi() {
        sent.push('multi')
        const chain = { set: () => chain, incr: () => chain, decr: () => chain, pttl: () => chain, exec: answer }
        return chain
      },
      pexpire: async () => 1,
      del: async () => 1,
    })
    return { client, sent }
  }
  const never = () => new Promise<never>(() => {})

  test('a hung Redis: the call fails after its timeout, saying so', async () => {
    const { client } = fakeClient('ready', never)
    const started = performance.now()
    await expect(redisRateLimitStore(client, { timeout: 50 }).hit('k', 60, 0)).rejects.toThrow('redisRateLimitStore: Redis did not answer the hit within 50 ms (connection ready)')
    expect(performance.now() - started).toBeLessThan(1000)
  })

  test('while reconnecting nothing is sent; ready within the timeout, the call goes and is answered', async () => {
    const { client, sent } = fakeClient('reconnecting', async () => [[null, 0], [null, 1], [null, 60_000]])
    const store = redisRateLimitStore(client, { timeout: 5_000 })
    const hit = store.hit('k', 60, 0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(sent).toEqual([])
    client.status = 'ready'
    client.emit('ready')
    expect(await hit).toEqual({ count: 1, resetAt: 60_000 })
    expect(sent).toEqual(['multi'])
    expect(client.listenerCount('ready')).toBe(0)
  })

  test('still reconnecting when the time is up: it fails, and nothing is sent later', async () => {
    const { client, sent } = fakeClient('reconnecting', async () => [[null, 0], [null, 1], [null, 60_000]])
    await expect(redisRateLimitStore(client, { timeout: 30 }).hit('k', 60, 0)).rejects.toThrow('within 30 ms (connection reconnecting)')
    expect(client.listenerCount('ready')).toBe(0)
    client.status = 'ready'
    client.emit('ready')
    expect(sent).toEqual([])
  })

  test('a timeout that is not a positive number is refused', () => {
    const { client } = fakeClient('ready', never)
    for (const timeout of [0, -1, Number.NaN, '200' as never]) {
      expect(() => redisRateLimitStore(client, { timeout })).toThrow(`redisRateLimitStore: expected timeout in milliseconds > 0, got ${timeout}`)
    }
  })
})
