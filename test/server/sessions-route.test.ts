/**
 * The user's sessions and devices over HTTP: GET /sessions lists them (opaque ids, sign-in time,
 * last seen, a device label, which one is this one), POST /sessions ends one or all the others;
 * on memory, PGlite and PostgreSQL (DATABASE_URL).
 */
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { deviceLabel } from '../../src/server/kernel/device-label.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { pgliteAdapter } from '../support/pglite.js'
import { testSecret } from '../support/server.js'
import { pluginStores } from '../support/plugin-stores.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const stores: Record<string, () => Promise<Adapter>> = { ...pluginStores<Adapter>([], 'sessions suite', 'test/server/sessions-route.test.ts', closers), PGlite: pgliteAdapter }

const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const safari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'
let run = 0

function app(adapter: Adapter | undefined) {
  const clock = { now: Date.parse('2026-06-01T00:00:00Z') }
  const prefix = `r${++run}-`
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    session: { strategy: adapter ? 'database' : 'jwt' },
    now: () => clock.now,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username }) => (typeof username === 'string' ? { id: prefix + username, email: `${prefix}${username}@example.com` } : null),
      }),
    ],
  })
  /** A browser on a device: its own cookies and User-Agent. */
  const device = async (username: string, userAgent = chrome) => {
    const jar = new Jar((request) => {
      request.headers.set('user-agent', userAgent)
      return handler(request)
    })
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'x' })
    expect(res.status).toBe(302)
    return jar
  }
  return { handler, clock, device }
}

const list = async (jar: Jar) => ((await (await jar.get('/auth/sessions')).json()) as { sessions: Array<{ id: string; device: string; current: boolean; createdAt: string | null; lastSeenAt: string }> }).sessions
const act = async (jar: Jar, fields: Record<string, string>, csrf = true) =>
  jar.postForm('/auth/sessions', { ...(csrf ? { csrfToken: await jar.csrf() } : {}), ...fields }, { 'x-auth-return-redirect': '1' })

describe.each(Object.keys(stores))('on %s', (name) => {
  const start = async () => app(await stores[name]())

  it('lists the devices with opaque ids, sign-in time, last seen and which one is this one', async () => {
    const { device, clock } = await start()
    const laptop = await device('ada', chrome)
    clock.now += 60_000
    const phone = await device('ada', safari)
    const seen = await list(laptop)
    expect(seen.map((s) => [s.device, s.current])).toEqual([['Safari on iOS', false], ['Chrome on Linux', true]])
    expect(seen[1].createdAt).toBe(new Date(clock.now - 60_000).toISOString())
    expect(Date.parse(seen[1].lastSeenAt)).toBe(clock.now - 60_000)
    // Neither the cookie nor the hash the store keeps, nor a piece of either.
    const cookie = laptop.cookies.get('latchkey.session-token')!
    const stored = createHash('sha256').update(cookie).digest('hex')
    for (const s of seen) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/)
      expect(cookie.includes(s.id) || stored.includes(s.id)).toBe(false)
    }
    expect((await list(phone)).find((s) => s.current)?.device).toBe('Safari on iOS')
  })

  it('revoke ends another device; revoke-others ends all but this one; sign-out everywhere is that and a sign-out', async () => {
    const { device } = await start()
    const [a, b, c] = [await device('ada'), await device('ada', safari), await device('ada')]
    const bId = (await list(a)).find((s) => s.device === 'Safari on iOS')!.id
    const res = await act(a, { action: 'revoke', id: bId })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { sessions: unknown[] }).sessions).toHaveLength(2)
    expect(await b.session()).toBeNull()
    expect(await c.session()).not.toBeNull()
    expect((await act(a, { action: 'revoke-others' })).status).toBe(200)
    expect(await c.session()).toBeNull()
    expect((await list(a)).map((s) => s.current)).toEqual([true])
    await a.postForm('/auth/signout', { csrfToken: await a.csrf() })
    expect(await a.session()).toBeNull()
  })

  it('revoking this session through revoke is a sign-out here', async () => {
    const { device } = await start()
    const a = await device('ada')
    const own = (await list(a)).find((s) => s.current)!.id
    const res = await act(a, { action: 'revoke', id: own })
    expect(res.status).toBe(200)
    expect(res.headers.get('latchkey-session')).toBe('none')
    expect(res.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token=;') && /Max-Age=0/.test(c))).toBe(true)
    expect(await a.session()).toBeNull()
  })

  it('ending another session needs a fresh one: 403 SessionNotFresh, and nothing ends', async () => {
    const { device, clock } = await start()
    const [a, b] = [await device('ada'), await device('ada', safari)]
    clock.now += 3600_000 + 1000
    const bId = (await list(a)).find((s) => !s.current)!.id
    const res = await act(a, { action: 'revoke', id: bId })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'SessionNotFresh' })
    expect((await act(a, { action: 'revoke-others' })).status).toBe(403)
    expect(await b.session()).not.toBeNull()
  })

  it("bad input: an unknown or another user's id, no CSRF token, an unknown action, signed out: clear errors, nothing ends", async () => {
    const { device, handler } = await start()
    const [a, b, bob] = [await device('ada'), await device('ada', safari), await device('bob')]
    const bobId = (await list(bob))[0].id
    const unknown = await act(a, { action: 'revoke', id: bobId })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'InvalidRequest' })
    expect((await act(a, { action: 'revoke', id: 'f'.repeat(32) })).status).toBe(404)
    expect((await act(a, { action: 'revoke' })).status).toBe(400)
    expect((await act(a, { action: 'revoke-others' }, false)).status).toBe(403)
    expect((await act(a, { action: 'drop-table' })).status).toBe(400)
    expect((await new Jar(handler).get('/auth/sessions')).status).toBe(401)
    for (const jar of [a, b, bob]) expect(await jar.session()).not.toBeNull()
  })
})

describe('where sessions cannot be listed', () => {
  it('JWT sessions and an adapter without listSessionsByUserId say what is missing', async () => {
    const jwt = app(undefined)
    const a = await jwt.device('ada')
    const res = await a.get('/auth/sessions')
    expect(res.status).toBe(501)
    expect(await res.json()).toMatchObject({ error: 'NotSupported', message: expect.stringMatching(/database session strategy/) })
    const partial = MemoryAdapter() as Adapter
    delete partial.listSessionsByUserId
    const b = await app(partial).device('ada')
    expect(await (await b.get('/auth/sessions')).json()).toMatchObject({ error: 'NotSupported', message: expect.stringMatching(/listSessionsByUserId/) })
  })
})

describe('device labels', () => {
  it('name the browser and the system', () => {
    expect(deviceLabel(chrome)).toBe('Chrome on Linux')
    expect(deviceLabel(safari)).toBe('Safari on iOS')
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Windows')
    expect(deviceLabel('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge on macOS')
    expect(deviceLabel('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome on Android')
    expect(deviceLabel('curl/8.5.0')).toBe('Unknown device')
    expect(deviceLabel(null)).toBe('Unknown device')
  })
})
