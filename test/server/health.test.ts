/**
 * GET /auth/health/live and /auth/health/ready, and a store that does not answer: every route
 * then answers 503 `StoreUnavailable` with Retry-After (never 500 Configuration), keeps the
 * session cookie, and logs the cause; readiness fails while the ping does and while draining.
 */
import { afterEach, describe, expect, test, vi } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { AdapterError } from '../../src/adapters/errors.js'
import { storeUnavailable } from '../../src/adapters/postgres/store-outage.js'
import type { Adapter } from '../../src/core/types.js'
import { readyTimeoutMs } from '../../src/server/routes/health.js'
import { Latchkey, type LatchkeyPlugin } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testServer, testSecret } from '../support/server.js'

const json = { 'x-auth-return-redirect': '1' }
const driverWords = 'terminating connection due to administrator command'

/** A memory adapter that, while `down`, throws what the PostgreSQL adapter throws when the database restarts. */
function flakyStore() {
  const memory = MemoryAdapter()
  const state = { down: false, pings: 0, ping: undefined as undefined | (() => Promise<void>) }
  const outage = () => storeUnavailable(Object.assign(new Error(driverWords), { code: '57P01' }))
  const adapter = new Proxy(memory, {
    get(target, name, receiver) {
      if (name === 'ping') {
        return async () => {
          state.pings++
          if (state.ping) return state.ping()
          if (state.down) throw outage()
        }
      }
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => (state.down ? Promise.reject(outage()) : value.apply(target, args))
    },
  }) as Adapter
  return { adapter, state }
}

function flakyServer() {
  const store = flakyStore()
  const failing = { on: false }
  const server = testServer({
    adapter: store.adapter,
    // The SQL store sits in the same database: down with it.
    rateLimit: { store: { hit: async () => (failing.on || store.state.down ? Promise.reject(new Error('ECONNREFUSED')) : { count: 1, resetAt: Date.now() + 60_000 }), refund: async () => {} } },
  })
  return { ...server, ...store }
}

async function signedIn(handler: (request: Request) => Promise<Response>) {
  const jar = new Jar(handler)
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, json)
  expect(res.status).toBe(200)
  expect((await jar.session()).user.email).toBe('ada@example.com')
  return jar
}

afterEach(() => {
  vi.useRealTimers()
})

describe('GET /auth/health/live and /auth/health/ready', () => {
  test('answer 200 with a JSON state, no-store, no cookie, and nothing logged', async () => {
    const { handler, logs } = testServer()
    for (const [path, status] of [['/auth/health/live', 'live'], ['/auth/health/ready', 'ready']]) {
      const res = await handler(new Request(`http://localhost:3000${path}`))
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status })
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.getSetCookie()).toEqual([])
    }
    expect(logs).toEqual([])
  })

  test("answer a probe that names the backend's own address, which is not the configured origin, and log no UntrustedHost", async () => {
    const { handler, logs } = testServer({ origin: 'https://app.example.com' })
    for (const path of ['/auth/health/live', '/auth/health/ready']) expect((await handler(new Request(`http://10.0.0.7:3000${path}`))).status).toBe(200)
    // Every other route still refuses that Host.
    expect((await handler(new Request('http://10.0.0.7:3000/auth/session'))).status).toBe(400)
    expect(logs).toEqual(['warn UntrustedHost: refused a request whose Host is neither a configured origin nor a loopback host'])
  })

  test('HEAD answers the status without a body; another method is 405 with Allow: GET; another path under health is 404', async () => {
    const { handler } = testServer()
    const head = await handler(new Request('http://localhost:3000/auth/health/ready', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    const post = await handler(new Request('http://localhost:3000/auth/health/ready', { method: 'POST', body: '' }))
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET')
    for (const path of ['/auth/health', '/auth/health/', '/auth/health/deep', '/auth/health/ready/more']) {
      const res = await handler(new Request(`http://localhost:3000${path}`))
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'UnknownAction', message: 'Expected /auth/health/live or /auth/health/ready' })
    }
  })

  test('count against no rate limit: a load balancer checking every instant is never refused', async () => {
    const hits: string[] = []
    const { handler } = testServer({ rateLimit: { store: { hit: async (key) => (hits.push(key), { count: 1000, resetAt: Date.now() + 60_000 }), refund: async () => {} } } })
    for (let i = 0; i < 50; i++) expect((await handler(new Request('http://localhost:3000/auth/health/ready'))).status).toBe(200)
    expect(hits).toEqual([])
  })

  test("readiness is 503 while the store's ping fails, says nothing of why, logs the cause once per outage, and is 200 when it answers again", async () => {
    const { handler, logs, state } = flakyServer()
    const ready = () => handler(new Request('http://localhost:3000/auth/health/ready'))
    expect((await ready()).status).toBe(200)
    state.down = true
    for (let i = 0; i < 3; i++) {
      const res = await ready()
      expect(res.status).toBe(503)
      const body = await res.text()
      expect(JSON.parse(body)).toEqual({ status: 'not ready' })
      expect(body).not.toMatch(/administrator|57P01|database/)
    }
    // Liveness does not ask the store.
    expect((await handler(new Request('http://localhost:3000/auth/health/live'))).status).toBe(200)
    expect(logs).toEqual([`error StoreUnavailable: Readiness: the store did not answer its ping; GET /health/ready answers 503 until it does The database did not answer; try again in a few seconds`])
    state.down = false
    expect((await ready()).status).toBe(200)
    state.down = true
    expect((await ready()).status).toBe(503)
    expect(logs).toHaveLength(2)
  })

  test(`a ping that hangs is 503 after ${readyTimeoutMs} ms, and checks meanwhile share that one ping`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { handler, state } = flakyServer()
    state.ping = () => new Promise(() => {})
    const checks = Array.from({ length: 5 }, () => handler(new Request('http://localhost:3000/auth/health/ready')))
    await vi.advanceTimersByTimeAsync(readyTimeoutMs - 1)
    let answered = 0
    for (const check of checks) void check.then(() => answered++)
    await vi.advanceTimersByTimeAsync(0)
    expect(answered).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect((await Promise.all(checks)).map((res) => res.status)).toEqual([503, 503, 503, 503, 503])
    expect(state.pings).toBe(1)
    // The next check pings again.
    state.ping = undefined
    expect((await handler(new Request('http://localhost:3000/auth/health/ready'))).status).toBe(200)
    expect(state.pings).toBe(2)
  })

  test('an adapter without ping, or none (JWT sessions), is ready on the process alone', async () => {
    const { ping: _ping, ...withoutPing } = MemoryAdapter()
    for (const handler of [testServer({ adapter: withoutPing }).handler, testServer({ strategy: 'jwt' }).handler]) {
      expect((await handler(new Request('http://localhost:3000/auth/health/ready'))).status).toBe(200)
    }
  })

  test('auth.drain(): readiness is 503 from then on, liveness and every other route still answer', async () => {
    const { handler } = testServer()
    const jar = await signedIn(handler)
    handler.drain()
    expect((await handler(new Request('http://localhost:3000/auth/health/ready'))).status).toBe(503)
    expect((await handler(new Request('http://localhost:3000/auth/health/live'))).status).toBe(200)
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  test('a plugin cannot take the name health', () => {
    const own: LatchkeyPlugin = { id: 'own', routes: { health: { GET: async () => ({ status: 200, headers: {}, cookies: [], body: null }) } } }
    expect(() => Latchkey({ secret: testSecret, providers: [], plugins: [own] })).toThrow(
      /plugin "own" answers health, which another part of the instance answers already/,
    )
  })
})

describe('a store that does not answer: 503 StoreUnavailable with Retry-After, never 500 Configuration', () => {
  test('GET /session keeps the session cookie and says try again', async () => {
    const { handler, logs, state } = flakyServer()
    const jar = await signedIn(handler)
    const cookie = jar.cookies.get('latchkey.session-token')
    state.down = true
    const res = await jar.get('/auth/session')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('3')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.text()
    expect(JSON.parse(body)).toEqual({ error: 'StoreUnavailable', message: 'The database did not answer; try again in a few seconds' })
    expect(body).not.toMatch(/administrator|57P01/)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(jar.cookies.get('latchkey.session-token')).toBe(cookie)
    // The log has the driver's words.
    expect(logs.at(-1)).toBe(`error AdapterError: The database did not answer; try again in a few seconds ${driverWords}`)
    state.down = false
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  test('a sign-in: 503 and the error in the JSON answer, or the error page that says try again', async () => {
    const { handler, state } = flakyServer()
    const jar = new Jar(handler)
    const csrfToken = await jar.csrf()
    state.down = true
    const asJson = await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'lovelace' }, json)
    expect(asJson.status).toBe(503)
    expect(asJson.headers.get('retry-after')).toBe('3')
    expect(await asJson.json()).toEqual({ error: 'StoreUnavailable', url: 'http://localhost:3000/auth/error?error=StoreUnavailable' })
    const asForm = await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'lovelace' })
    expect(asForm.status).toBe(302)
    expect(asForm.headers.get('location')).toBe('http://localhost:3000/auth/error?error=StoreUnavailable')
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
    state.down = false
    const page = await (await jar.get('/auth/error?error=StoreUnavailable')).text()
    expect(page).toContain('The service is unavailable for a moment. Try again in a few seconds.')
  })

  test('a sign-out that meets the outage changes nothing in the browser either: the cookie stays, to sign out with once the store answers', async () => {
    const { handler, state } = flakyServer()
    const jar = await signedIn(handler)
    const csrfToken = await jar.csrf()
    state.down = true
    const res = await jar.postForm('/auth/signout', { csrfToken }, json)
    expect(res.status).toBe(503)
    expect(res.headers.getSetCookie()).toEqual([])
    // No "signed out" for the SDK to hear.
    expect(res.headers.get('latchkey-session')).toBeNull()
    state.down = false
    expect((await jar.session()).user.email).toBe('ada@example.com')
    expect((await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() }, json)).status).toBe(200)
    expect(await jar.session()).toBeNull()
  })

  test('the rate-limit store alone failing is StoreUnavailable too, with Retry-After', async () => {
    const server = testServer({ rateLimit: { store: { hit: async () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379')), refund: async () => {} } } })
    const jar = new Jar(server.handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, json)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('3')
    expect((await res.json()).error).toBe('StoreUnavailable')
    // Logged once for the outage, naming the store's own words and what each action does meanwhile.
    expect(server.logs.filter((line) => line.startsWith('error'))).toEqual([expect.stringMatching(/^error StoreUnavailable: The rate-limit store failed: ECONNREFUSED 127\.0\.0\.1:6379\. Until it answers again: 503 StoreUnavailable for .*credentials/)])
  })

  test('an adapter error that is a broken rule, not an outage, is still 500 Configuration', async () => {
    const memory = MemoryAdapter()
    const adapter: Adapter = { ...memory, getSessionAndUser: async () => Promise.reject(new AdapterError('InvalidInput', 'getSessionAndUser: expected a string')) }
    const { handler } = testServer({ adapter })
    const jar = new Jar(handler)
    jar.cookies.set('latchkey.session-token', 'anything')
    const res = await jar.get('/auth/session')
    expect(res.status).toBe(500)
    expect(res.headers.get('retry-after')).toBeNull()
    expect((await res.json()).error).toBe('Configuration')
  })
})
