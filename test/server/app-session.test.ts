/**
 * The session in the app's own routes: `auth.getSession(request, response)`, `requireSession`
 * (node) and `withSession` (fetch-style), over HTTP, for both strategies, on memory, PGlite and
 * PostgreSQL (DATABASE_URL).
 */
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter, Session } from '../../src/core/types.js'
import { parseTiming } from '../../src/core/session-rule.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey, withSession } from '../../src/server/index.js'
import { requireSession, toNodeHandler, type RequestWithSession } from '../../src/node/index.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { pgliteAdapter } from '../support/pglite.js'
import { testSecret } from '../support/server.js'
import { needsService } from '../support/needs-service.js'

const day = 86400
const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

let postgres: Promise<{ adapter: Adapter; schema: IsolatedSchema }> | undefined

const stores: Record<string, () => Promise<Adapter>> = {
  memory: async () => MemoryAdapter(),
  PGlite: pgliteAdapter,
}
const url = needsService('DATABASE_URL', 'app-session suite on PostgreSQL (memory and PGlite ran)', 'postgres://postgres@127.0.0.1:5432/test', 'test/server/app-session.test.ts')
if (url) {
  stores.PostgreSQL = async () =>
    (
      await (postgres ??= (async () => {
        const schema = await createIsolatedSchema(url)
        closers.push(() => schema.drop())
        const pool = schema.pgPool(4)
        await migrate(PostgresAdapter(pool).db)
        return { adapter: PostgresAdapter(pool), schema }
      })())
    ).adapter
}

interface App {
  auth: ReturnType<typeof makeAuth>
  adapter?: Adapter
  clock: { now: number }
  /** A browser-like client of the app, through the binding under test. */
  jar: Jar
  port?: number
}

let users = 0

function makeAuth(adapter: Adapter | undefined, clock: { now: number }, email: string) {
  return Latchkey({
    secret: testSecret,
    adapter,
    session: { strategy: adapter ? 'database' : 'jwt', maxAge: 30 * day, updateAge: day },
    now: () => clock.now,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async (c) => (c.password === 'right' ? { id: `id-${email}`, email, name: 'Ada' } : null),
      }),
    ],
    callbacks: { session: ({ session }) => ({ ...session, plan: 'pro' as const }) },
  })
}

/** The app: latchkey under /auth, `/api/me` behind the guard, `/api/peek` reading without a response. */
async function startApp(binding: 'node' | 'web', adapter: Adapter | undefined): Promise<App> {
  const clock = { now: Date.parse('2026-03-01T00:00:00Z') }
  const auth = makeAuth(adapter, clock, `user${++users}@example.com`)
  const peek = async (request: Request) => Response.json({ session: await auth.getSession(request) })
  if (binding === 'web') {
    const me = withSession(auth, (_request, session) => Response.json(session))
    const fetcher = (request: Request) => {
      const path = new URL(request.url).pathname
      return path.startsWith('/auth') ? auth(request) : path === '/api/peek' ? peek(request) : me(request)
    }
    return { auth, adapter, clock, jar: new Jar(fetcher) }
  }
  const latchkey = toNodeHandler(auth)
  const guard = requireSession(auth)
  const server: Server = createServer((req, res) => {
    if (req.url!.startsWith('/auth')) return void latchkey(req, res)
    void guard(req, res, () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify((req as RequestWithSession).session))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(() => new Promise((r) => server.close(r)))
  const port = (server.address() as AddressInfo).port
  return { auth, adapter, clock, jar: new Jar((request) => fetch(request), `http://127.0.0.1:${port}`), port }
}

async function signIn(jar: Jar): Promise<void> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'u', password: 'right' })
  expect(res.status).toBe(302)
}

const cases: Array<[string, 'node' | 'web', (() => Promise<Adapter>) | undefined]> = []
for (const binding of ['node', 'web'] as const) {
  cases.push([`${binding}, jwt`, binding, undefined])
  for (const [name, store] of Object.entries(stores)) cases.push([`${binding}, database on ${name}`, binding, store])
}

describe.each(cases)('the app\'s own route (%s)', (_name, binding, store) => {
  const start = async () => startApp(binding, store ? await store() : undefined)

  it('signed out: 401 JSON, not cached', async () => {
    const { jar } = await start()
    const res = await jar.get('/api/me')
    expect(res.status).toBe(401)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('www-authenticate')).toBeNull()
    expect(await res.json()).toEqual({ error: 'Unauthorized' })
  })

  it('signed in: the session, shaped by the session callback, with no cookie written while not due', async () => {
    const { jar } = await start()
    await signIn(jar)
    const res = await jar.get('/api/me')
    expect(res.status).toBe(200)
    const session = (await res.json()) as Session & { plan: string }
    expect(session.user.email).toMatch(/^user\d+@example\.com$/)
    expect(session.plan).toBe('pro')
    expect(res.headers.getSetCookie()).toEqual([])
    expect(res.headers.get('latchkey-session')).toBeNull()
  })

  it('a due session is extended through the response, with the timing header the worker reads', async () => {
    const { jar, clock, adapter } = await start()
    await signIn(jar)
    const signedInAt = clock.now
    clock.now += (day + 1) * 1000
    const res = await jar.get('/api/me')
    expect(res.status).toBe(200)
    const timing = parseTiming(res.headers.get('latchkey-session'))
    expect(timing?.expires).toBe(clock.now + 30 * day * 1000)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token='))).toBe(true)
    expect(((await res.json()) as Session).expires).toBe(new Date(clock.now + 30 * day * 1000).toISOString())
    if (adapter) {
      const cookie = [...jar.cookies].find(([name]) => name.includes('session-token'))![1]
      const found = await adapter.getSessionAndUser!(await storedSessionToken(cookie))
      expect(found?.session.expires.getTime()).toBe(clock.now + 30 * day * 1000)
    }
    // The extension stuck: the next read is not due and writes nothing.
    const again = await jar.get('/api/me')
    expect(again.headers.getSetCookie()).toEqual([])
    expect(clock.now).toBeGreaterThan(signedInAt)
  })

  it('without a response object nothing is extended', async () => {
    const { jar, clock, auth, adapter } = await start()
    await signIn(jar)
    const cookie = [...jar.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const before = (await jar.session()).expires
    clock.now += (day + 1) * 1000
    const session = await auth.getSession(new Request('http://localhost/api/x', { headers: { cookie } }))
    expect(session?.expires).toBe(before)
    expect(session?.plan).toBe('pro')
    if (adapter) {
      const token = [...jar.cookies].find(([name]) => name.includes('session-token'))![1]
      expect((await adapter.getSessionAndUser!(await storedSessionToken(token)))?.session.expires.toISOString()).toBe(before)
    }
  })

  it('an expired session is 401, and the cookie is cleared', async () => {
    const { jar, clock } = await start()
    await signIn(jar)
    clock.now += 31 * day * 1000
    const res = await jar.get('/api/me')
    expect(res.status).toBe(401)
    expect(parseTiming(res.headers.get('latchkey-session'))).toBeNull()
    expect(res.headers.getSetCookie().some((c) => /session-token=;/.test(c) && /Max-Age=0/.test(c))).toBe(true)
  })

  it('a malformed cookie is 401, never a 500', async () => {
    const { jar } = await start()
    for (const value of ['garbage', '%E0%A4%A', 'a'.repeat(3000), 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z']) {
      const res = await jar.get('/api/me', { cookie: `latchkey.session-token=${value}` })
      expect(res.status).toBe(401)
    }
  })

  if (store) it('a cookie for a deleted user is 401', async () => {
    const { jar, adapter } = await start()
    await signIn(jar)
    const user = (await jar.session()).user
    await adapter!.deleteUser!(user.id)
    expect((await jar.get('/api/me')).status).toBe(401)
  })

  if (binding === 'node') it('a request without a Host is 401, never a 500', async () => {
    const { port } = await start()
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port!, '127.0.0.1')
      let text = ''
      socket.on('data', (c) => (text += c))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
      socket.write('GET /api/me HTTP/1.0\r\ncookie: latchkey.session-token=x\r\n\r\n')
    })
    expect(answer.split('\r\n')[0]).toMatch(/^HTTP\/1\.[01] 401 /)
  })
})

describe('getSession refuses what the routes refuse', () => {
  it('an untrusted Host has no session, even with a valid cookie', async () => {
    const { jar, auth } = await startApp('web', MemoryAdapter())
    await signIn(jar)
    const cookie = [...jar.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    expect(await auth.getSession(new Request('http://localhost/api', { headers: { cookie } }))).not.toBeNull()
    expect(await auth.getSession(new Request('http://evil.example/api', { headers: { cookie } }))).toBeNull()
  })

  it('a store that fails is handed to next(error) by requireSession, and the route does not run', async () => {
    const failing = MemoryAdapter()
    failing.getSessionAndUser = async () => {
      throw new Error('database down')
    }
    const guard = requireSession(makeAuth(failing, { now: Date.now() }, 'x@example.com'))
    const errors: unknown[] = []
    let ran = false
    const server = createServer((req, res) =>
      void guard(req, res, (error?: unknown) => {
        if (error) errors.push(error)
        else ran = true
        res.statusCode = error ? 503 : 200
        res.end()
      }),
    )
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    closers.push(() => new Promise((r) => server.close(r)))
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, { headers: { cookie: 'latchkey.session-token=abc' } })
    expect(res.status).toBe(503)
    expect(ran).toBe(false)
    expect(String(errors[0])).toMatch(/database down/)
  })
})
