import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const signIn = async (jar: Jar, fields: Record<string, string> = {}) =>
  jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', ...fields })

describe('callbacks and events', () => {
  it('a signIn callback returning false refuses with AccessDenied and creates nothing', async () => {
    const { handler, adapter } = testServer({ callbacks: { signIn: () => false } })
    const jar = new Jar(handler)
    const res = await signIn(jar)
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/error?error=AccessDenied')
    expect(await adapter.getUser('user-ada')).toBeNull()
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
  })

  it('a custom redirect callback decides where the browser goes', async () => {
    const { handler } = testServer({ callbacks: { redirect: ({ url, baseUrl }) => `${baseUrl}/welcome?from=${encodeURIComponent(url)}` } })
    const res = await signIn(new Jar(handler), { callbackUrl: '/x' })
    expect(res.headers.get('location')).toBe('http://localhost:3000/welcome?from=%2Fx')
  })

  it('fires signIn, createUser, session and signOut events with what happened', async () => {
    const events: string[] = []
    const { handler } = testServer({
      events: {
        signIn: ({ user, isNewUser }) => void events.push(`signIn ${user.email} new=${isNewUser}`),
        createUser: ({ user }) => void events.push(`createUser ${user.email}`),
        session: ({ session }) => void events.push(`session ${session.user.email}`),
        signOut: ({ session }) => void events.push(`signOut ${session?.userId}`),
      },
    })
    const jar = new Jar(handler)
    await signIn(jar)
    await jar.session()
    await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
    expect(events).toEqual(['createUser ada@example.com', 'signIn ada@example.com new=true', 'session ada@example.com', 'signOut user-ada'])
  })
})

describe('cookies on https', () => {
  it('carry Secure and the __Host- prefix: Path=/, no Domain', async () => {
    const { handler } = testServer({ origin: 'https://app.example.com' })
    const jar = new Jar(handler, 'https://app.example.com')
    const csrf = await jar.get('/auth/csrf')
    expect(csrf.headers.getSetCookie()[0]).toMatch(/^__Host-latchkey\.csrf-token=.*; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    const res = await signIn(jar)
    const set = res.headers.getSetCookie()
    expect(set.length).toBeGreaterThan(0)
    for (const cookie of set) {
      expect(cookie).toMatch(/^__Host-latchkey\./)
      expect(cookie).toMatch(/; Path=\/; .*Secure;/)
      expect(cookie).not.toMatch(/Domain=/i)
    }
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  it('a session cookie tossed by a sibling subdomain (__Secure-, Domain=parent) is not read', async () => {
    const { handler } = testServer({ origin: 'https://app.example.com' })
    // The attacker's own valid session, as evil.example.com could set it for .example.com.
    const attacker = new Jar(handler, 'https://app.example.com')
    await signIn(attacker)
    const token = [...attacker.cookies].find(([name]) => name.endsWith('latchkey.session-token'))![1]
    const res = await handler(new Request('https://app.example.com/auth/session', { headers: { cookie: `__Secure-latchkey.session-token=${token}` } }))
    expect(await res.json()).toBeNull()
  })
})

describe('CORS', () => {
  it('answers trusted origins with credentials, and only them', async () => {
    const { handler } = testServer({ trustedOrigins: ['https://spa.example.com'] })
    const preflight = await handler(new Request('http://localhost:3000/auth/session', { method: 'OPTIONS', headers: { origin: 'https://spa.example.com' } }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
    const read = await handler(new Request('http://localhost:3000/auth/session', { headers: { origin: 'https://spa.example.com' } }))
    expect(read.headers.get('access-control-allow-origin')).toBe('https://spa.example.com')
    expect(read.headers.get('access-control-expose-headers')).toBe('Latchkey-Session, Latchkey-WebAuthn-Error, Retry-After')
    const other = await handler(new Request('http://localhost:3000/auth/session', { headers: { origin: 'https://other.example.com' } }))
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  /** A refused preflight from `origin`, its answer and what the server logged. */
  async function refused(headers: Record<string, string>, url = 'http://localhost:3000/auth/callback/credentials') {
    const { handler, logs } = testServer({ origin: 'http://localhost:3000' })
    const res = await handler(new Request(url, { method: 'OPTIONS', headers }))
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const body = (await res.json()) as { error: string; message: string }
    expect(body.error).toBe('InvalidRequest')
    expect(logs.filter((l) => l.startsWith('warn InvalidRequest: a preflight refused'))).toHaveLength(1)
    expect(logs.join('\n')).toContain(body.message)
    return body.message
  }

  it("a refusal says the fix: `origin` should be the page's URL behind a dev proxy, else trustedOrigins", async () => {
    // A page on a dev server's port (its proxy forwards /auth here) called the URL the server built on its own origin.
    const message = await refused({ origin: 'http://localhost:5173' })
    expect(message).toContain("set origin (or AUTH_URL) to http://localhost:5173, the page's URL")
    expect(message).toContain('add http://localhost:5173 to trustedOrigins')
    expect(message.indexOf('set origin')).toBeLessThan(message.indexOf('add http://localhost:5173'))
  })

  it("a request that arrived under the page's own host (a proxy that kept Host, or set X-Forwarded-Host): only `origin`", async () => {
    for (const message of [
      await refused({ origin: 'http://localhost:5173', 'x-forwarded-host': 'localhost:5173' }),
      await refused({ origin: 'http://localhost:5173' }, 'http://localhost:5173/auth/callback/credentials'),
    ]) {
      expect(message).toBe(
        "The page at http://localhost:5173 reaches latchkey through a proxy on its own origin, but origin is http://localhost:3000, so latchkey's URLs send it to another origin: set origin (or AUTH_URL) to http://localhost:5173, the page's URL, so latchkey builds its URLs on the page's origin",
      )
    }
  })

  it('an Origin that is not a plain origin is named nowhere', async () => {
    for (const origin of ['null', 'http://evil.example/path', 'http://a b.example', 'javascript:alert(1)', 'http://evil.example\tinjected']) {
      const message = await refused({ origin })
      expect(message).toBe('Cross-origin calls are allowed only from http://localhost:3000 and the configured trustedOrigins')
    }
  })
})

describe('redirects to a frontend on another origin', () => {
  it('the default redirect allows a trustedOrigins origin, and still no other', async () => {
    const { handler } = testServer({ trustedOrigins: ['https://spa.example.com'] })
    const to = async (callbackUrl: string) => (await signIn(new Jar(handler), { callbackUrl })).headers.get('location')
    expect(await to('https://spa.example.com/account?tab=2')).toBe('https://spa.example.com/account?tab=2')
    expect(await to('https://evil.example.com/')).toBe('http://localhost:3000')
    expect(await to('https://spa.example.com.evil.example.com/')).toBe('http://localhost:3000')
    expect(await to('javascript:alert(1)')).toBe('http://localhost:3000')
    expect(await to('/x')).toBe('http://localhost:3000/x')
  })

  it('a custom redirect callback still decides alone', async () => {
    const { handler } = testServer({ trustedOrigins: ['https://spa.example.com'], callbacks: { redirect: ({ baseUrl }) => baseUrl } })
    const res = await signIn(new Jar(handler), { callbackUrl: 'https://spa.example.com/account' })
    expect(res.headers.get('location')).toBe('http://localhost:3000')
  })
})

describe('cookie size', () => {
  it('a jwt callback that bloats the token fails the sign-in clearly instead of losing the cookie', async () => {
    const { handler, logs } = testServer({ strategy: 'jwt', callbacks: { jwt: ({ token }) => ({ ...token, blob: 'x'.repeat(5000) }) } })
    const jar = new Jar(handler)
    const res = await signIn(jar)
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/error?error=Configuration')
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
    expect(logs.join('\n')).toMatch(/over the 3800 a cookie can carry/)
  })
})

describe('session reads through the callbacks', () => {
  for (const strategy of ['database', 'jwt'] as const) {
    it(`Latchkey-Session announces the stored expiry, whatever the session callback made of expires (${strategy})`, async () => {
      const { handler, clock } = testServer({ strategy, callbacks: { session: ({ session }) => ({ ...session, expires: '2099-01-01T00:00:00.000Z' }) } })
      const jar = new Jar(handler)
      await signIn(jar)
      const read = await jar.get('/auth/session')
      expect((await read.json()).expires).toBe('2099-01-01T00:00:00.000Z')
      const expires = clock.now + 30 * 86400 * 1000
      expect(read.headers.get('latchkey-session')).toBe(`expires=${expires}; due=${expires - 29 * 86400 * 1000}`)
    })
  }

  it('a "__proto__" claim in a JWT session lends the read token nothing through its prototype', async () => {
    const { handler } = testServer({
      strategy: 'jwt',
      callbacks: {
        jwt: ({ token, trigger }) => (trigger === 'signIn' ? { ...token, ...JSON.parse('{"__proto__": {"role": "admin"}}') } : token),
        session: ({ session, token }) => ({ ...session, role: (token as { role?: string }).role ?? 'none' }),
      },
    })
    const jar = new Jar(handler)
    await signIn(jar)
    const session = await jar.session()
    expect(session.user.email).toBe('ada@example.com')
    expect(session.role).toBe('none')
  })
})
