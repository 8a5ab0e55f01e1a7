/**
 * A stolen, stale session cookie links the thief's own provider account (issue "Holes found from
 * outside, round three", item 1), performed as the attacker does it: the victim signs in with a
 * password, the thief copies the cookie, waits past `freshAge`, and signs in at a real OpenID
 * provider as themselves while holding it. On the memory adapter and our SQL adapter (PGlite).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AdapterAccount, AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { pgliteAdapter } from '../support/pglite.js'
import { startIdp, type Idp } from '../support/idp.js'
import { atIdp, beginSignIn, bob, Browser, deliver, recordingLogger, sessionOf, startApp, type App } from './harness.js'

const secret = 'a-test-secret-of-enough-length-0123456789'
const hour = 3600_000
let app: App
let idp: Idp
let offset = 0
let linked: AdapterAccount[] = []

const stores: Record<string, () => Promise<Adapter>> = { memory: async () => MemoryAdapter(), PGlite: pgliteAdapter }

function config(adapter: Adapter | undefined, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    adapter,
    session: { strategy: adapter ? 'database' : 'jwt', freshAge: 3600 },
    // The clock the test moves; oauth4webapi judges ID tokens by it too.
    now: () => Date.now() + offset,
    logger: process.env.DEBUG_TEST ? console : recordingLogger().logger,
    events: { linkAccount: ({ account }) => void linked.push(account) },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: 'password' } },
        authorize: async (c) => (c.username === 'victim' && c.password === 'correct horse' ? { id: 'victim-id', email: 'victim@example.com', name: 'Victim' } : null),
      }),
      { id: 'idp', name: 'Demo IdP', type: 'oidc', issuer: idp.issuer, jwks_endpoint: undefined, clientId: 'latchkey-confidential', clientSecret: 'confidential-secret' },
    ],
    ...extra,
  }
}

async function passwordSignIn(browser: Browser): Promise<void> {
  const { csrfToken } = (await (await browser.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
  const res = await browser.request(`${app.auth}/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, username: 'victim', password: 'correct horse' }),
  })
  expect(res.status).toBe(302)
}

/** A second browser holding only a copy of the victim's session cookie. */
function thiefWith(victim: Browser): Browser {
  const thief = new Browser()
  thief.set(app.url, 'latchkey.session-token', victim.get(app.url, 'latchkey.session-token')!)
  return thief
}

beforeAll(async () => {
  app = await startApp()
  // ID tokens outlive the test's two-hour jump.
  idp = await startIdp({
    idTokenTtl: 6 * 3600,
    clients: [{ client_id: 'latchkey-confidential', client_secret: 'confidential-secret', redirect_uris: [`${app.auth}/callback/idp`], token_endpoint_auth_method: 'client_secret_basic' }],
  })
})
afterAll(() => Promise.all([app?.close(), idp?.close()]))
beforeEach(() => {
  offset = 0
  linked = []
})

describe.each(Object.keys(stores))('on %s', (storeName) => {
  let adapter: Required<Adapter>
  // PGlite starts cold in seconds: before the first test, not inside it (an idle keep-alive socket would be reset).
  beforeAll(() => stores[storeName]())
  beforeEach(async () => {
    adapter = (await stores[storeName]()) as Required<Adapter>
    app.use(config(adapter))
  })
  const idpLinks = async () => (await adapter.listAccountsByUserId('victim-id')).filter((a) => a.provider === 'idp')
  const sessionsOfVictim = async () => (await adapter.listSessionsByUserId('victim-id')).map((s) => s.sessionToken).sort()

  it('a copied cookie two hours old cannot link the thief\'s IdP account: no link, no new session, the error says to confirm', async () => {
    const victim = new Browser()
    await passwordSignIn(victim)
    const thief = thiefWith(victim)
    offset = 2 * hour
    const before = await sessionsOfVictim()
    const authorization = await beginSignIn(thief, app, 'idp')
    const finished = await deliver(thief, await atIdp(thief, authorization, bob))
    expect(finished.error).toBe('SessionNotFresh')
    // The error page says what to do.
    expect(await (await thief.request(new URL(finished.location, app.url).href)).text()).toContain('sign in again the way you did before, then add the new way to sign in')
    expect(await idpLinks()).toEqual([])
    expect(await adapter.getUserByEmail(bob.email)).toBeNull()
    expect(linked).toEqual([])
    expect(await sessionsOfVictim()).toEqual(before)
    // The thief still holds only the copied cookie, which has not become fresh.
    expect(thief.get(app.url, 'latchkey.session-token')).toBe(victim.get(app.url, 'latchkey.session-token'))
    expect((await sessionOf(thief, app))?.user.email).toBe('victim@example.com')
  })

  it('a link asked for with link=true is refused before the browser leaves for the provider', async () => {
    const victim = new Browser()
    await passwordSignIn(victim)
    const thief = thiefWith(victim)
    offset = 2 * hour
    const { csrfToken } = (await (await thief.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
    const res = await thief.request(`${app.auth}/signin/idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
      body: new URLSearchParams({ csrfToken, link: 'true', callbackUrl: '/' }),
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'SessionNotFresh' })
    expect(res.headers.getSetCookie().filter((c) => !/Max-Age=0/.test(c))).toEqual([])
  })

  it('the owner links within freshAge; the new session is no fresher than the one it was made over', async () => {
    const owner = new Browser()
    await passwordSignIn(owner)
    const signedInAt = (await owner.request(`${app.auth}/session`).then((r) => r.json()) as { signedInAt: string }).signedInAt
    offset = 30 * 60_000
    const authorization = await beginSignIn(owner, app, 'idp')
    const finished = await deliver(owner, await atIdp(owner, authorization, bob))
    expect(finished.error).toBeUndefined()
    expect(await idpLinks()).toHaveLength(1)
    expect(linked.map((a) => a.provider)).toEqual(['idp'])
    const after = (await owner.request(`${app.auth}/session`).then((r) => r.json())) as { signedInAt: string }
    expect(after.signedInAt).toBe(signedInAt)
    // Forty more minutes: past freshAge counted from the password sign-in, so the link bought no freshness.
    offset += 40 * 60_000
    const { csrfToken } = (await (await owner.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
    const unlink = await owner.request(`${app.auth}/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, action: 'unlink', provider: 'idp' }),
    })
    expect(unlink.status).toBe(403)
  })

  it('a sign-in over a device-bound session, linking or not, stays bound to the same key', async () => {
    const owner = new Browser()
    await passwordSignIn(owner)
    const cookie = owner.get(app.url, 'latchkey.session-token')!
    const binding = { id: 'binding-under-test', jwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' } }
    await adapter.updateSession({ sessionToken: await storedSessionToken(cookie), deviceBinding: binding })
    // Without its bound cookie a bound session reads as none; give the browser one, as /dbsc/register would.
    app.use(config(adapter, { session: { strategy: 'database', freshAge: 3600, deviceBound: { cookieMaxAge: 600 } } }))
    const { setBoundCookie } = await import('../../src/server/features/dbsc/bound-cookie.js')
    const { resolveConfig } = await import('../../src/server/kernel/config.js')
    const { createContext } = await import('../../src/server/kernel/context.js')
    const ctx = createContext(new Request(`${app.url}/`), resolveConfig(config(adapter, { session: { strategy: 'database', deviceBound: { cookieMaxAge: 600 } } })))
    await setBoundCookie(ctx, binding.id, 600)
    const [pair] = ctx.setCookies[0].split(';')
    owner.set(app.url, pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    expect((await sessionOf(owner, app))?.user.email).toBe('victim@example.com')

    // The first sign-in links the IdP account (on a fresh store), the second signs in with it.
    let next = cookie
    for (const round of [1, 2]) {
      const authorization = await beginSignIn(owner, app, 'idp')
      expect((await deliver(owner, await atIdp(owner, authorization, bob))).error, `round ${round}`).toBeUndefined()
      expect(owner.get(app.url, 'latchkey.session-token')).not.toBe(next)
      next = owner.get(app.url, 'latchkey.session-token')!
      const record = await adapter.getSessionAndUser(await storedSessionToken(next))
      expect(record?.session.deviceBinding, `round ${round}`).toEqual(binding)
    }
    // A copy of the new cookie without the bound one gets no session: only the device's key goes on.
    const copy = new Browser()
    copy.set(app.url, 'latchkey.session-token', next)
    expect(await sessionOf(copy, app)).toMatchObject({ error: 'SessionRefreshRequired' })
    expect((await sessionOf(copy, app)) as unknown).not.toHaveProperty('user')
  })
})

describe('JWT sessions', () => {
  it('a stale copied token cannot link either, and a fresh link keeps the sign-in instant', async () => {
    app.use(config(MemoryAdapter(), { session: { strategy: 'jwt', freshAge: 3600 } }))
    const victim = new Browser()
    await passwordSignIn(victim)
    const signedInAt = (await victim.request(`${app.auth}/session`).then((r) => r.json()) as { signedInAt: string }).signedInAt
    const thief = thiefWith(victim)
    offset = 2 * hour
    const stale = await deliver(thief, await atIdp(thief, await beginSignIn(thief, app, 'idp'), bob))
    expect(stale.error).toBe('SessionNotFresh')
    expect(linked).toEqual([])

    offset = 10 * 60_000
    const fresh = await deliver(victim, await atIdp(victim, await beginSignIn(victim, app, 'idp'), bob))
    expect(fresh.error).toBeUndefined()
    expect(linked.map((a) => a.provider)).toEqual(['idp'])
    expect(((await victim.request(`${app.auth}/session`).then((r) => r.json())) as { signedInAt: string }).signedInAt).toBe(signedInAt)
  })
})
