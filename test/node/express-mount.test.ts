/**
 * latchkey under Express 5, mounted the ways an Express app mounts a handler: `app.use('/auth', ...)`
 * (Express strips '/auth' from req.url), `app.all('/auth/*splat', ...)` and a bare `app.use(...)`.
 * Each signs in with credentials over HTTP and reads the session back.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import type { AuthConfig } from '../../src/core/types.js'
import { getSession, requireSession, toNodeHandler } from '../../src/node/index.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { Jar } from '../support/jar.js'

const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))))

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: 'express-mount-test-secret-0123456789',
    logger: { error: (e) => logged.push(e.message), warn: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: 'password' } },
        authorize: async ({ username, password }) => (password === 'right' && typeof username === 'string' ? { id: username, email: `${username}@example.com` } : null),
      }),
    ],
    ...extra,
  }
}
let logged: string[] = []

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await new Promise<void>((r) => server.once('listening', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An app whose own route reads the session through latchkey/node's getSession. */
function appWith(mount: (app: express.Express, auth: ReturnType<typeof Latchkey>) => void, extra?: Partial<AuthConfig>): express.Express {
  const auth = Latchkey(config(extra))
  const app = express()
  app.get('/api/me', async (req, res) => {
    const session = await getSession(auth, req, res)
    res.json({ email: session?.user.email ?? null })
  })
  mount(app, auth)
  return app
}

const mounts: Record<string, (app: express.Express, auth: ReturnType<typeof Latchkey>) => void> = {
  "app.use('/auth', handler)": (app, auth) => app.use('/auth', toNodeHandler(auth)),
  "app.all('/auth/*splat', handler)": (app, auth) => app.all('/auth/*splat', toNodeHandler(auth)),
  'app.use(handler) after the app routes': (app, auth) => app.use(toNodeHandler(auth)),
}

describe.each(Object.keys(mounts))('Express 5: %s', (name) => {
  it('signs in with credentials and answers the session', async () => {
    const base = await listen(appWith(mounts[name]))
    const jar = new Jar((r) => fetch(r), base)
    expect(await jar.session()).toBeNull()
    const wrong = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' })
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get('location')).toBe(`${base}/auth/signin?error=CredentialsSignin`)
    const res = await jar.postForm('/auth/callback/credentials?ignored=1', { csrfToken: await jar.csrf(), username: 'ada', password: 'right' })
    expect(res.status).toBe(302)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    expect(await (await jar.get('/api/me')).json()).toEqual({ email: 'ada@example.com' })
    const providers = await (await jar.get('/auth/providers')).json()
    expect(providers.credentials.callbackUrl).toBe(`${base}/auth/callback/credentials`)
    await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
    expect(await jar.session()).toBeNull()
  })
})

describe('Express 5 mounts that reach no route', () => {
  it("app.use('/api/auth', ...) with basePath '/auth' answers 404 naming both paths and the fix, logged once", async () => {
    logged = []
    const base = await listen(appWith((app, auth) => app.use('/api/auth', toNodeHandler(auth))))
    for (const path of ['/api/auth/session', '/api/auth/csrf', '/api/auth']) {
      const res = await fetch(base + path)
      expect(res.status).toBe(404)
      const body = await res.json()
      expect(body.error).toBe('Configuration')
      expect(body.message).toBe(
        "latchkey is mounted at /api/auth but its basePath is /auth, so it answers nothing there: pass basePath: '/api/auth' to Latchkey(config), or mount it at /auth (app.use('/auth', toNodeHandler(auth)))",
      )
    }
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatch(/mounted at \/api\/auth but its basePath is \/auth/)
  })

  it("the same mount with basePath: '/api/auth' signs in", async () => {
    const base = await listen(appWith((app, auth) => app.use('/api/auth', toNodeHandler(auth)), { basePath: '/api/auth' }))
    const jar = new Jar((r) => fetch(r), base)
    const csrf = ((await (await jar.get('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken
    expect((await jar.postForm('/api/auth/callback/credentials', { csrfToken: csrf, username: 'bo', password: 'right' })).status).toBe(302)
    expect(((await (await jar.get('/api/auth/session')).json()) as { user: { email: string } }).user.email).toBe('bo@example.com')
  })

  it("a wider mount (app.use('/api', ...) with basePath '/api/auth') is no mistake: other paths get the usual 404", async () => {
    logged = []
    const base = await listen(appWith((app, auth) => app.use('/api', toNodeHandler(auth)), { basePath: '/api/auth' }))
    expect((await (await fetch(`${base}/api/auth/session`)).json())).toBeNull()
    const other = await fetch(`${base}/api/other`)
    expect(other.status).toBe(404)
    expect((await other.json()).error).toBe('UnknownAction')
    expect(logged).toEqual([])
  })

  it("Express 5 refuses the Express 4 pattern '/auth/*' when the route is declared", () => {
    const app = express()
    expect(() => app.all('/auth/*', toNodeHandler(Latchkey(config())))).toThrow(/Missing parameter name/)
  })
})

describe('the session read leaves the body to the app', () => {
  it('requireSession before express.json(): the route reads the JSON body the guard left unread', async () => {
    const auth = Latchkey(config())
    const app = express()
    app.use('/auth', toNodeHandler(auth))
    const signedIn = requireSession(auth)
    app.post('/api/notes', signedIn, express.json(), (req, res) => res.json({ email: signedIn.session(req).user.email, note: req.body.note }))
    const jar = new Jar((r) => fetch(r), await listen(app))
    expect((await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'cy', password: 'right' })).status).toBe(302)
    const res = await jar.postJson('/api/notes', { note: 'x'.repeat(100_000) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ email: 'cy@example.com', note: 'x'.repeat(100_000) })
  })
})
