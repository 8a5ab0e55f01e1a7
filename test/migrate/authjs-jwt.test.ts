/**
 * `migrateFrom.authjs` with the JWT strategy: cookies minted by `@auth/core` 0.41 and by next-auth
 * 4's encoder are read by latchkey without a new sign-in, become latchkey's own cookie on that
 * response (the old one cleared), and the next request reads latchkey's. Changed, foreign,
 * expired and too-late tokens are refused as latchkey's own are: no session, the old cookie
 * cleared, and no latchkey cookie made.
 */
import { describe, expect, test } from 'vitest'
import type { AuthConfig, JWT } from '../../src/core/types.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'
import { authjsJwtCookies, authjsSecret, nextAuth4Cookie, oldUser } from './authjs.js'

const day = 86400_000

function latchkey(overrides: Partial<AuthConfig> = {}, until = new Date(Date.now() + 30 * day)) {
  const errors: string[] = []
  const handler = Latchkey({
    secret: testSecret,
    providers: [Credentials({ authorize: () => null })],
    migrateFrom: { authjs: { secret: authjsSecret, until } },
    logger: { error: (e) => errors.push(e.message), warn: () => {}, debug: () => {} },
    callbacks: { session: ({ session, token }) => ({ ...session, role: token?.role }) },
    ...overrides,
  })
  return { handler, errors }
}

function jarWith(handler: (r: Request) => Promise<Response>, cookies: Map<string, string>, origin?: string): Jar {
  const jar = new Jar(handler, origin)
  for (const [name, value] of cookies) jar.cookies.set(name, value)
  return jar
}

/** The Set-Cookie lines of a response, by cookie name. */
function setCookies(res: Response): Map<string, string> {
  return new Map(res.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]))
}

const cleared = (line: string | undefined) => line !== undefined && /Max-Age=0/.test(line)

describe('Auth.js JWT sessions, read until the window ends', () => {
  test('an @auth/core 0.41 session is read without a sign-in, keeps its user and jwt-callback claims, and becomes latchkey\'s cookie', async () => {
    const old = await authjsJwtCookies()
    expect([...old.keys()]).toEqual(['authjs.session-token'])
    const { handler, errors } = latchkey()
    const jar = jarWith(handler, old)
    const res = await jar.get('/auth/session')
    const session = await res.json()
    expect(session.user).toEqual({ id: oldUser.id, name: oldUser.name, email: oldUser.email, image: oldUser.image })
    expect(session.role).toBe('editor')
    // Taken over, not a sign-in: it is not fresh.
    expect(session.signedInAt).toBeUndefined()
    const lines = setCookies(res)
    expect(cleared(lines.get('authjs.session-token'))).toBe(true)
    expect(lines.get('latchkey.session-token')).toMatch(/^latchkey\.session-token=[^;]+; Expires=/)
    expect(res.headers.get('latchkey-session')).toMatch(/expires=/)
    // Auth.js's default 30 days, started a moment ago: the old expiry is kept.
    expect(Date.parse(session.expires)).toBeGreaterThan(Date.now() + 29 * day)
    expect(Date.parse(session.expires)).toBeLessThanOrEqual(Date.now() + 30 * day)

    expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
    const again = await jar.get('/auth/session')
    expect((await again.json()).user.id).toBe(oldUser.id)
    expect(again.headers.getSetCookie()).toEqual([])
    expect(errors).toEqual([])
  })

  test('the __Secure- form on https becomes latchkey\'s __Host- cookie, the old one cleared with Secure', async () => {
    const old = await authjsJwtCookies({ origin: 'https://app.example.com' })
    expect([...old.keys()]).toEqual(['__Secure-authjs.session-token'])
    const { handler } = latchkey({ origin: 'https://app.example.com' })
    const jar = jarWith(handler, old, 'https://app.example.com')
    const res = await jar.get('/auth/session')
    expect((await res.json()).user.email).toBe(oldUser.email)
    const lines = setCookies(res)
    expect(cleared(lines.get('__Secure-authjs.session-token'))).toBe(true)
    expect(lines.get('__Secure-authjs.session-token')).toMatch(/; Secure/)
    expect(lines.get('__Host-latchkey.session-token')).toMatch(/; Secure/)
    expect((await jar.session()).user.id).toBe(oldUser.id)
  })

  test('chunked cookies (.0, .1) are joined and read; every chunk is cleared', async () => {
    const old = await authjsJwtCookies({ padding: 4000 })
    expect([...old.keys()]).toEqual(['authjs.session-token.0', 'authjs.session-token.1'])
    // The app's latchkey jwt callback drops what does not belong in a cookie, as latchkey asks.
    const { handler, errors } = latchkey({ callbacks: { jwt: ({ token }) => ({ ...token, padding: undefined }), session: ({ session, token }) => ({ ...session, role: token?.role }) } })
    const jar = jarWith(handler, old)
    const res = await jar.get('/auth/session')
    expect((await res.json()).role).toBe('editor')
    const lines = setCookies(res)
    expect(cleared(lines.get('authjs.session-token.0')) && cleared(lines.get('authjs.session-token.1'))).toBe(true)
    expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
    expect(errors).toEqual([])
  })

  test('chunks out of their order, or with one missing, are refused', async () => {
    const old = await authjsJwtCookies({ padding: 4000 })
    const { handler } = latchkey()
    const swapped = new Map([['authjs.session-token.0', old.get('authjs.session-token.1')!], ['authjs.session-token.1', old.get('authjs.session-token.0')!]])
    const missing = new Map([['authjs.session-token.1', old.get('authjs.session-token.1')!]])
    for (const cookies of [swapped, missing]) {
      const jar = jarWith(handler, cookies)
      expect(await jar.session()).toBeNull()
      expect(jar.cookies.size).toBe(0)
    }
  })

  test('claims too large for latchkey\'s one cookie: no session and no 500; the error is logged and the old cookies cleared', async () => {
    const old = await authjsJwtCookies({ padding: 4000 })
    const { handler, errors } = latchkey()
    const jar = jarWith(handler, old)
    const res = await jar.get('/auth/session')
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(jar.cookies.size).toBe(0)
    expect(errors.join('\n')).toMatch(/An old session was not taken over: .*over the 3800 a cookie can carry/)
  })

  test('a next-auth 4 token (its own encoder) is read and taken over', async () => {
    const { handler } = latchkey()
    const jar = jarWith(handler, await nextAuth4Cookie())
    const res = await jar.get('/auth/session')
    expect(await res.json()).toMatchObject({ user: { id: oldUser.id, email: oldUser.email }, role: 'editor' })
    expect(cleared(setCookies(res).get('next-auth.session-token'))).toBe(true)
    expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
    expect((await jar.session()).user.id).toBe(oldUser.id)
  })

  test('the latchkey jwt callback runs on the taken-over token, as on every read of latchkey\'s own', async () => {
    const seen: JWT[] = []
    const { handler } = latchkey({ callbacks: { jwt: ({ token }) => (seen.push(token), token) } })
    const jar = jarWith(handler, await nextAuth4Cookie())
    await jar.session()
    expect(seen[0]).toMatchObject({ sub: oldUser.id, role: 'editor' })
    expect(seen[0]).not.toHaveProperty('jti')
  })

  test('a token that claims a recent sign-in and a second factor is taken over as neither: no amr, no signedInAt, and adding a passkey asks for a sign-in', async () => {
    // What an Auth.js app's jwt callback may have kept, and what latchkey reads as its own sign-in.
    const claims = { amr: ['pwd', 'otp', 'mfa'], auth_time: Math.floor(Date.now() / 1000) - 5, sign_in_provider: 'credentials' }
    const adapter = MemoryAdapter()
    await adapter.createUser({ ...oldUser, emailVerified: new Date() })
    for (const old of [await authjsJwtCookies({ claims }), await nextAuth4Cookie({ claims })]) {
      const { handler, errors } = latchkey({ adapter, session: { strategy: 'jwt' }, providers: [Credentials({ authorize: () => null }), Passkey()] })
      const jar = jarWith(handler, old)
      // The first read takes it over; the second reads latchkey's own cookie.
      for (let read = 0; read < 2; read++) {
        const session = await jar.session()
        expect(session.user.id).toBe(oldUser.id)
        expect(session.amr).toBeUndefined()
        expect(session.signedInAt).toBeUndefined()
        expect(handler.isFresh(session)).toBe(false)
        expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
      }
      const options = await jar.get('/auth/webauthn-options/passkey?action=register')
      expect(options.status).toBe(403)
      expect(await options.json()).toMatchObject({ error: 'SessionNotFresh' })
      expect(errors).toEqual([])
    }
  })

  describe('refused as latchkey refuses its own: no session, the old cookie cleared, no latchkey cookie', () => {
    async function expectRefused(cookies: Map<string, string>, options: { until?: Date } = {}) {
      const { handler } = latchkey({}, options.until)
      const jar = jarWith(handler, cookies)
      const res = await jar.get('/auth/session')
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
      const lines = setCookies(res)
      for (const name of cookies.keys()) expect(cleared(lines.get(name))).toBe(true)
      expect(lines.has('latchkey.session-token') ? cleared(lines.get('latchkey.session-token')) : true).toBe(true)
      expect(jar.cookies.size).toBe(0)
    }

    test('a token with one byte changed', async () => {
      const [[name, value]] = [...(await authjsJwtCookies())]
      // A byte of the ciphertext (the fourth part), not of the header.
      const parts = value.split('.')
      parts[3] = parts[3].slice(0, 5) + (parts[3][5] === 'A' ? 'B' : 'A') + parts[3].slice(6)
      await expectRefused(new Map([[name, parts.join('.')]]))
    })

    test('a token under another secret', async () => {
      await expectRefused(await authjsJwtCookies({ secret: 'another-authjs-secret-0123456789-abcdef' }))
      await expectRefused(await nextAuth4Cookie({ secret: 'another-authjs-secret-0123456789-abcdef' }))
    })

    test('a next-auth 4 token in the next-auth 5 cookie (a foreign key and algorithm)', async () => {
      await expectRefused(new Map([['authjs.session-token', (await nextAuth4Cookie()).get('next-auth.session-token')!]]))
    })

    test('an expired token, with no clock tolerance', async () => {
      await expectRefused(await nextAuth4Cookie({ maxAge: -1 }))
    })

    test('any token after `until`', async () => {
      await expectRefused(await authjsJwtCookies(), { until: new Date(Date.now() - 1000) })
      await expectRefused(await nextAuth4Cookie(), { until: new Date(Date.now() - 1000) })
    })
  })

  test('without migrateFrom nothing old is read or cleared', async () => {
    const handler = Latchkey({ secret: testSecret, providers: [Credentials({ authorize: () => null })] })
    const jar = jarWith(handler, await authjsJwtCookies())
    const res = await jar.get('/auth/session')
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
  })

  test('sign-out with only the old cookie ends it: the next read has no session', async () => {
    const { handler } = latchkey()
    const jar = jarWith(handler, await authjsJwtCookies())
    const res = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
    expect(res.status).toBe(302)
    expect(jar.cookies.has('authjs.session-token')).toBe(false)
    expect(await jar.session()).toBeNull()
  })

  test('auth.getSession(request) without a response answers the old session and changes nothing; with one, takes it over there', async () => {
    const { handler } = latchkey()
    const old = await authjsJwtCookies()
    const cookie = [...old].map(([k, v]) => `${k}=${v}`).join('; ')
    const request = () => new Request('http://localhost:3000/app', { headers: { cookie } })
    expect((await handler.getSession(request()))?.user?.id).toBe(oldUser.id)
    const headers = new Headers()
    expect((await handler.getSession(request(), headers))?.user?.id).toBe(oldUser.id)
    const lines = headers.getSetCookie()
    expect(lines.some((l) => l.startsWith('latchkey.session-token=') && !/Max-Age=0/.test(l))).toBe(true)
    expect(lines.some((l) => l.startsWith('authjs.session-token=;') && /Max-Age=0/.test(l))).toBe(true)
  })

  test('a start-up with a bad window, or no secret to read JWT cookies with, is refused with the fix', () => {
    const base = { secret: testSecret, providers: [Credentials({ authorize: () => null })] }
    expect(() => Latchkey({ ...base, migrateFrom: { authjs: { until: 'soon' } } })).toThrow(/migrateFrom\.authjs\.until must be a Date or an ISO 8601 instant/)
    expect(() => Latchkey({ ...base, migrateFrom: { authjs: { secret: '', until: new Date() } } })).toThrow(/migrateFrom\.authjs\.secret must be Auth\.js's secret/)
  })
})
