/**
 * Device-bound sessions over HTTP, driven by a client written to the DBSC specification with a
 * software key in the test process: registration from the sign-in's Secure-Session-Registration,
 * the short cookie, its lapse, refresh with a proof, and every refusal, on a fake clock.
 */
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/index.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { Jar } from '../support/jar.js'
import { pgliteAdapter } from '../support/pglite.js'
import { testSecret, testServer } from '../support/server.js'

interface Device {
  privateKey: CryptoKey
  jwk: JWK
}

async function newDevice(): Promise<Device> {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  return { privateKey, jwk: await exportJWK(publicKey) }
}

/** A proof as the specification defines it: the key in the header only when registering. */
function proof(device: Device, challenge: string, register: boolean): Promise<string> {
  return new SignJWT({ jti: challenge })
    .setProtectedHeader({ typ: 'dbsc+jwt', alg: 'ES256', ...(register ? { jwk: device.jwk } : {}) } as never)
    .sign(device.privateKey)
}

const sf = (value: string) => `"${value}"`

function registrationOf(res: Response): { path: string; challenge: string } {
  const header = res.headers.get('secure-session-registration') ?? ''
  const m = /^\(ES256 RS256\);path="([^"]+)";challenge="([^"]+)"$/.exec(header)
  expect(m, `Secure-Session-Registration: ${header}`).not.toBeNull()
  return { path: m![1], challenge: m![2] }
}

function challengeOf(res: Response): { challenge: string; id: string } {
  const m = /^"([^"]+)";id="([^"]+)"$/.exec(res.headers.get('secure-session-challenge') ?? '')
  expect(m).not.toBeNull()
  return { challenge: m![1], id: m![2] }
}

async function signedIn(jar: Jar, username = 'ada'): Promise<Response> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'lovelace' })
  expect(res.status).toBe(302)
  return res
}

/** Signs in and registers the device, as a browser that speaks DBSC does. */
async function boundSession(jar: Jar, device: Device) {
  const { path, challenge } = registrationOf(await signedIn(jar))
  const res = await jar.request(path, { method: 'POST', headers: { 'secure-session-response': sf(await proof(device, challenge, true)) } })
  expect(res.status).toBe(200)
  return (await res.json()) as { session_identifier: string; refresh_url: string; credentials: Array<{ name: string; attributes: string }>; scope: unknown }
}

/** The refresh the browser runs: ask, get a challenge, sign it. */
async function refresh(jar: Jar, device: Device, id: string): Promise<Response> {
  const first = await jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'sec-secure-session-id': sf(id) } })
  expect(first.status).toBe(403)
  const { challenge } = challengeOf(first)
  return jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'sec-secure-session-id': sf(id), 'secure-session-response': sf(await proof(device, challenge, false)) } })
}

/** The memory adapter, or our SQL adapter over the file's PGlite. */
const stores: Record<string, () => Promise<Adapter>> = { memory: async () => MemoryAdapter(), PGlite: pgliteAdapter }

let bound: () => ReturnType<typeof testServer>
let store: Adapter


describe.each(Object.keys(stores))('on %s', (storeName) => {
beforeAll(async () => {
  store = await stores[storeName]()
  bound = () => testServer({ adapter: store, session: { deviceBound: { cookieMaxAge: 600 } } })
})

describe('registration', () => {
  it('a sign-in offers it; the proof binds the session and answers the session instructions and a short cookie', async () => {
    const { handler } = bound()
    const jar = new Jar(handler)
    const device = await newDevice()
    const instructions = await boundSession(jar, device)
    expect(instructions).toMatchObject({
      refresh_url: '/auth/dbsc/refresh',
      scope: { origin: 'http://localhost:3000', include_site: false },
      credentials: [{ type: 'cookie', name: 'latchkey.bound', attributes: 'Path=/; HttpOnly; SameSite=Lax' }],
    })
    expect(jar.cookies.has('latchkey.bound')).toBe(true)
    const token = jar.cookies.get('latchkey.session-token')!
    const stored = await store.getSessionAndUser!(await storedSessionToken(token))
    expect(stored?.session.deviceBinding).toEqual({ id: instructions.session_identifier, jwk: { kty: 'EC', crv: 'P-256', x: device.jwk.x, y: device.jwk.y } })
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  it('refuses a proof for a challenge it did not give this session, a used one, and a second binding', async () => {
    const { handler } = bound()
    const jar = new Jar(handler)
    const other = new Jar(handler)
    const device = await newDevice()
    const mine = registrationOf(await signedIn(jar))
    const theirs = registrationOf(await signedIn(other, 'ada'))
    const post = (j: Jar, challenge: string) => j.request('/auth/dbsc/register', { method: 'POST', headers: { 'secure-session-response': sf(challenge) } })
    expect((await post(jar, await proof(device, theirs.challenge, true))).status).toBe(403)
    expect((await post(jar, await proof(device, 'made-up', true))).status).toBe(403)
    expect((await post(jar, await proof(device, mine.challenge, true))).status).toBe(200)
    expect((await post(jar, await proof(device, mine.challenge, true))).status).toBe(409)
    expect((await post(new Jar(handler), await proof(device, mine.challenge, true))).status).toBe(401)
  })
})

describe('the short cookie and refresh', () => {
  it('lapses after cookieMaxAge: the session reads as "refresh needed", never signed in and never signed out; a proof renews it', async () => {
    const { handler, clock } = bound()
    const jar = new Jar(handler)
    const device = await newDevice()
    const { session_identifier: id } = await boundSession(jar, device)
    clock.now += 600_000 - 1000
    expect((await jar.get('/auth/session')).status).toBe(200)
    clock.now += 1000
    const lapsed = await jar.get('/auth/session')
    expect(lapsed.status).toBe(403)
    expect(await lapsed.json()).toMatchObject({ error: 'SessionRefreshRequired' })
    expect(challengeOf(lapsed).id).toBe(id)
    expect(lapsed.headers.getSetCookie()).toEqual([])

    const renewed = await refresh(jar, device, id)
    expect(renewed.status).toBe(200)
    // latchkey's worker may not set a Sec- header: it names the session in Latchkey-Session-Id.
    clock.now += 600_000
    const asked = await jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'latchkey-session-id': sf(id) } })
    const { challenge } = challengeOf(asked)
    const byWorker = await jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'latchkey-session-id': sf(id), 'secure-session-response': sf(await proof(device, challenge, false)) } })
    expect(byWorker.status).toBe(200)
    expect(byWorker.headers.get('latchkey-session')).toMatch(new RegExp(`bound=${clock.now + 600_000}$`))
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  it("auth.getSession on the app's own route: a lapsed bound session reads as none, and the app's response carries the challenge", async () => {
    const { handler, clock } = bound()
    const jar = new Jar(handler)
    const { session_identifier: id } = await boundSession(jar, await newDevice())
    const appRequest = () => new Request('http://localhost:3000/app', { headers: { cookie: [...jar.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } })
    const fresh = new Headers()
    expect((await handler.getSession(appRequest(), fresh))?.user?.email).toBe('ada@example.com')
    expect(fresh.get('secure-session-challenge')).toBeNull()
    clock.now += 601_000
    const lapsed = new Headers()
    expect(await handler.getSession(appRequest(), lapsed)).toBeNull()
    expect(challengeOf(new Response(null, { headers: lapsed })).id).toBe(id)
  })

  it('refuses a proof from another key, for another session, replayed, or for a revoked session, and changes nothing', async () => {
    const { handler, clock } = bound()
    const jar = new Jar(handler)
    const device = await newDevice()
    const { session_identifier: id } = await boundSession(jar, device)
    const other = new Jar(handler)
    const { session_identifier: otherId } = await boundSession(other, await newDevice())
    clock.now += 601_000
    const ask = async () => challengeOf(await jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'sec-secure-session-id': sf(id) } })).challenge
    const send = (sid: string, jwt: string) =>
      jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'sec-secure-session-id': sf(sid), 'secure-session-response': sf(jwt) } })

    const thief = await newDevice()
    const wrongKey = await send(id, await proof(thief, await ask(), false))
    expect(wrongKey.status).toBe(403)
    expect(await wrongKey.json()).toMatchObject({ error: 'AccessDenied' })
    expect((await send(otherId, await proof(device, await ask(), false))).status).toBe(403)
    expect((await send(id, 'not-a-jwt')).status).toBe(400)

    const challenge = await ask()
    const ok = await send(id, await proof(device, challenge, false))
    expect(ok.status).toBe(200)
    const replay = await send(id, await proof(device, challenge, false))
    expect(replay.status).toBe(403)
    expect(replay.headers.getSetCookie()).toEqual([])

    const out = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
    expect(out.status).toBe(302)
    const afterSignOut = await send(id, await proof(device, challenge, false))
    expect(afterSignOut.status).toBe(401)
    expect(afterSignOut.headers.getSetCookie()).toEqual([])
  })

  it('a copied cookie jar (no key) works only until the short cookie lapses; the device goes on', async () => {
    const { handler, clock } = bound()
    const jar = new Jar(handler)
    const device = await newDevice()
    const { session_identifier: id } = await boundSession(jar, device)
    const stolen = new Jar(handler)
    for (const [name, value] of jar.cookies) stolen.cookies.set(name, value)
    expect((await stolen.session()).user.email).toBe('ada@example.com')
    clock.now += 600_000
    expect((await stolen.get('/auth/session')).status).toBe(403)
    // Without the key the thief can ask for challenges but sign none; dropping the bound cookie does not help.
    expect((await refresh(stolen, await newDevice(), id)).status).toBe(403)
    stolen.cookies.delete('latchkey.bound')
    expect((await stolen.get('/auth/session')).status).toBe(403)
    expect((await refresh(jar, device, id)).status).toBe(200)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    expect((await stolen.get('/auth/session')).status).toBe(403)
  })

  it('for users who must bind, an unbound session ends a minute after its sign-in; a bound one goes on', async () => {
    const { handler, clock } = testServer({ adapter: store, session: { deviceBound: { requireFor: (user) => user.email === 'ada@example.com' } } })
    const unbound = new Jar(handler)
    await signedIn(unbound)
    clock.now += 59_000
    expect((await unbound.session())?.user.email).toBe('ada@example.com')
    const device = await newDevice()
    const bound = new Jar(handler)
    const { path, challenge } = registrationOf(await signedIn(bound))
    expect((await bound.request(path, { method: 'POST', headers: { 'secure-session-response': sf(await proof(device, challenge, true)) } })).status).toBe(200)
    clock.now += 2_000
    expect(await unbound.session()).toBeNull()
    expect(unbound.cookies.has('latchkey.session-token')).toBe(false)
    expect((await bound.session())?.user.email).toBe('ada@example.com')
  })

  it('a session that never registered works as without binding', async () => {
    const { handler, clock } = bound()
    const jar = new Jar(handler)
    await signedIn(jar)
    clock.now += 3600_000
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })
})

})

describe('configuration and bad input', () => {
  it('the timing header says dbsc only where binding is on, so a worker asks nothing of a server with it off', async () => {
    for (const [deviceBound, marked] of [[true, true], [false, false]] as const) {
      const { handler } = testServer({ session: { deviceBound } })
      const jar = new Jar(handler)
      const timing = (await signedIn(jar)).headers.get('latchkey-session') ?? ''
      expect(timing).toMatch(/^expires=\d+; due=\d+/)
      expect([deviceBound, /; dbsc$/.test(timing)]).toEqual([deviceBound, marked])
    }
  })

  it('needs the database strategy, and a cookie lifetime of at least 10 s', () => {
    expect(() => Latchkey({ secret: testSecret, providers: [], session: { deviceBound: true } })).toThrow(/database session strategy/)
    expect(() => testServer({ session: { deviceBound: { cookieMaxAge: 5 } } })).toThrow(/cookieMaxAge >= 10/)
  })

  it('refuses to bind over a store that drops the binding, and the session stays unbound', async () => {
    const adapter = MemoryAdapter()
    const update = adapter.updateSession!.bind(adapter)
    adapter.updateSession = ({ deviceBinding: _dropped, ...rest }) => update(rest)
    const { handler } = testServer({ adapter, session: { deviceBound: true } })
    const jar = new Jar(handler)
    const { path, challenge } = registrationOf(await signedIn(jar))
    const res = await jar.request(path, { method: 'POST', headers: { 'secure-session-response': sf(await proof(await newDevice(), challenge, true)) } })
    expect(res.status).toBe(500)
    expect(jar.cookies.has('latchkey.bound')).toBe(false)
  })

  it('without deviceBound the routes do not exist; refresh needs Sec-Secure-Session-Id; register needs a proof header', async () => {
    const plain = new Jar(testServer().handler)
    expect((await plain.request('/auth/dbsc/register', { method: 'POST' })).status).toBe(404)
    const { handler } = testServer({ session: { deviceBound: true } })
    const jar = new Jar(handler)
    await signedIn(jar)
    expect((await jar.request('/auth/dbsc/refresh', { method: 'POST' })).status).toBe(400)
    expect((await jar.request('/auth/dbsc/register', { method: 'POST' })).status).toBe(400)
    expect((await jar.request('/auth/dbsc/register', { method: 'POST', headers: { 'secure-session-response': 'unquoted' } })).status).toBe(400)
    expect((await jar.request('/auth/dbsc/nope', { method: 'POST' })).status).toBe(404)
  })

  it('the worker asks for a registration challenge when the browser did not register', async () => {
    const { handler } = testServer({ session: { deviceBound: true } })
    const jar = new Jar(handler)
    await signedIn(jar)
    const res = await jar.get('/auth/dbsc/challenge')
    const { challenge, path } = (await res.json()) as { challenge: string; path: string }
    expect(path).toBe('/auth/dbsc/register')
    const device = await newDevice()
    expect((await jar.request(path, { method: 'POST', headers: { 'secure-session-response': sf(await proof(device, challenge, true)) } })).status).toBe(200)
    expect((await jar.get('/auth/dbsc/challenge')).status).toBe(409)
  })
})
