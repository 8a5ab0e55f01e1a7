/**
 * Fresh sessions, at the boundary of `freshAge` on a fake clock: the session JSON's `signedInAt`,
 * `auth.isFresh`, `requireFreshSession` over HTTP, and adding a passkey, which needs a recent sign-in.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Passkey from '../../src/providers/passkey.js'
import { requireFreshSession, toNodeHandler } from '../../src/node/index.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const hour = 3600_000
const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))))

async function signIn(jar: Jar): Promise<void> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
  expect(res.status).toBe(302)
}

describe.each(['database', 'jwt'] as const)('%s sessions', (strategy) => {
  it('carry the sign-in instant, which an extension does not move', async () => {
    const { handler, clock } = testServer({ strategy })
    const jar = new Jar(handler)
    const at = clock.now
    await signIn(jar)
    expect((await jar.session()).signedInAt).toBe(new Date(at).toISOString())
    clock.now += 25 * hour // due: the session is extended
    const later = await jar.get('/auth/session')
    expect(later.headers.get('latchkey-session')).not.toBeNull()
    expect(((await later.json()) as { signedInAt: string }).signedInAt).toBe(new Date(at).toISOString())
  })

  it('are fresh up to freshAge after the sign-in, and not a millisecond later', async () => {
    const { handler, clock } = testServer({ strategy, session: { freshAge: 600 } })
    const jar = new Jar(handler)
    await signIn(jar)
    const session = await jar.session()
    clock.now += 600_000
    expect(handler.isFresh(session)).toBe(true)
    clock.now += 1
    expect(handler.isFresh(session)).toBe(false)
    expect(handler.isFresh(session, 3600)).toBe(true)
    expect(handler.isFresh({ ...session, signedInAt: undefined })).toBe(false)
  })

  it('adding a passkey needs a fresh one: 403 SessionNotFresh past freshAge, and a new sign-in makes it fresh', async () => {
    // Passkeys keep users in a store under either strategy.
    const { handler, clock } = testServer({ strategy, adapter: MemoryAdapter(), extraProviders: [Passkey()] })
    const jar = new Jar(handler)
    await signIn(jar)
    const options = () => jar.get('/auth/webauthn-options/passkey?action=register')
    clock.now += hour
    expect((await options()).status).toBe(200)
    clock.now += 1
    const stale = await options()
    expect(stale.status).toBe(403)
    expect(stale.headers.get('latchkey-webauthn-error')).toBe('not-fresh')
    expect(await stale.json()).toMatchObject({ error: 'SessionNotFresh' })
    expect(stale.headers.getSetCookie().filter((c) => !/Max-Age=0/.test(c))).toEqual([])
    await signIn(jar)
    expect((await options()).status).toBe(200)
  })
})

describe('requireFreshSession over HTTP', () => {
  it('answers 401 signed out, the route while fresh, 403 SessionNotFresh once stale', async () => {
    const { handler, clock } = testServer()
    const latchkey = toNodeHandler(handler)
    const fresh = requireFreshSession(handler, 60)
    const server = createServer((req, res) => {
      if (req.url!.startsWith('/auth/')) return void latchkey(req, res)
      void fresh(req, res, () => res.end(JSON.stringify({ ok: fresh.session(req).user.email })))
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const jar = new Jar((r) => fetch(r), `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    expect((await jar.get('/api/delete-account')).status).toBe(401)
    await signIn(jar)
    clock.now += 60_000
    const ok = await jar.get('/api/delete-account')
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ ok: 'ada@example.com' })
    clock.now += 1
    const stale = await jar.get('/api/delete-account')
    expect(stale.status).toBe(403)
    expect(stale.headers.get('cache-control')).toBe('no-store')
    expect(await stale.json()).toEqual({ error: 'SessionNotFresh' })
  })

  it("an adapter without latchkey's additions is given only the contract's session fields", async () => {
    const adapter = MemoryAdapter()
    delete (adapter as { listSessionsByUserId?: unknown }).listSessionsByUserId
    const given: object[] = []
    const create = adapter.createSession!.bind(adapter)
    adapter.createSession = (session) => (given.push(session), create(session))
    const { handler } = testServer({ adapter })
    await signIn(new Jar(handler))
    expect(given.map((s) => Object.keys(s).sort())).toEqual([['expires', 'sessionToken', 'userId']])
  })

  it('a store that keeps no sign-in time is never fresh', async () => {
    const adapter = MemoryAdapter()
    const create = adapter.createSession!.bind(adapter)
    adapter.createSession = ({ createdAt: _dropped, ...rest }) => create(rest)
    const { handler } = testServer({ adapter })
    const jar = new Jar(handler)
    await signIn(jar)
    const session = await jar.session()
    expect(session.signedInAt).toBeUndefined()
    expect(handler.isFresh(session)).toBe(false)
  })
})
