/**
 * One-time records must not grow the store without bound (issue 25, item 4). The attack: a
 * signed-in user asks GET /dbsc/challenge over and over. It meets a 429, leaves one outstanding
 * challenge per session and purpose, and once lifetimes pass, any later write purges expired
 * records of every kind (DBSC and WebAuthn challenges, email tokens), a bounded batch at a time.
 * Expired one-time codes too (issue 42, item 3): asking email codes for address after address
 * once left a row each, forever.
 * On the memory adapter, PGlite, and a PostgreSQL server where DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { fromPg, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter, VerificationToken } from '../../src/core/types.js'
import Passkey from '../../src/providers/passkey.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { pgliteAdapter } from '../support/pglite.js'
import { testServer } from '../support/server.js'

const url = needsService('DATABASE_URL', 'PostgreSQL case of test/dbsc/store-growth', 'postgres://postgres@127.0.0.1:5432/test', 'test/dbsc')
let schema: IsolatedSchema | undefined
afterAll(async () => schema?.drop())

const stores: Record<string, () => Promise<Adapter>> = { memory: async () => MemoryAdapter(), PGlite: pgliteAdapter }
if (url) {
  stores.PostgreSQL = async () => {
    schema = await createIsolatedSchema(url)
    const db = fromPg(schema.pgPool())
    await migrate(db)
    return PostgresAdapter(db)
  }
}

const sf = (value: string) => `"${value}"`
const minute = 60_000

/** A DBSC proof: the key in the header only when registering. */
async function proof(challenge: string, key: CryptoKey, jwk?: object): Promise<string> {
  return new SignJWT({ jti: challenge }).setProtectedHeader({ typ: 'dbsc+jwt', alg: 'ES256', ...(jwk ? { jwk } : {}) } as never).sign(key)
}

async function newDevice() {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  return { privateKey, jwk: await exportJWK(publicKey) }
}

/** Signs in; answers the registration challenge the sign-in offered. */
async function signIn(jar: Jar): Promise<string> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
  expect(res.status).toBe(302)
  return /challenge="([^"]+)"/.exec(res.headers.get('secure-session-registration') ?? '')![1]
}

const register = async (jar: Jar, challenge: string, device: Awaited<ReturnType<typeof newDevice>>) =>
  jar.request('/auth/dbsc/register', { method: 'POST', headers: { 'secure-session-response': sf(await proof(challenge, device.privateKey, device.jwk)) } })

const kindOf = (r: VerificationToken) => (r.identifier.startsWith('dbsc:') ? 'dbsc' : r.identifier.startsWith('webauthn:') ? 'webauthn' : 'email')

const requestLink = async (jar: Jar) =>
  jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: `u-${randomUUID()}@example.com`, callbackUrl: '/' })

describe.each(Object.keys(stores))('on %s', (storeName) => {
  let store: Adapter

  beforeEach(async () => {
    store ??= await stores[storeName]()
    // Each test starts from an empty token table (a no-op where the adapter cannot delete).
    await store.deleteVerificationTokens?.({ expiredBefore: new Date(Date.UTC(9999, 0, 1)) })
    await store.deleteVerificationCodes?.({ expiredBefore: new Date(Date.UTC(9999, 0, 1)) })
  })

  /** A device-bound test server over the store, recording every one-time record it writes. */
  function server() {
    const written: VerificationToken[] = []
    const adapter: Adapter = {
      ...store,
      createVerificationToken: async (record) => {
        written.push({ ...record })
        return store.createVerificationToken!(record)
      },
    }
    const { handler, clock } = testServer({ adapter, session: { deviceBound: { cookieMaxAge: 600 } }, extraProviders: [Passkey()] })
    /** How many of these records are still in the store (probing uses them up). */
    const left = async (records: VerificationToken[]) => (await Promise.all(records.map((r) => store.useVerificationToken!(r)))).filter(Boolean).length
    return { handler, clock, written, left }
  }

  it('GET /dbsc/challenge over and over: 429 after 10 a minute, and the session keeps one outstanding challenge', async () => {
    const { handler, clock, written, left } = server()
    const other = new Jar(handler)
    const othersChallenge = await signIn(other)
    const jar = new Jar(handler)
    const challenges = [await signIn(jar)]
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) {
      const res = await jar.get('/auth/dbsc/challenge')
      statuses.push(res.status)
      if (res.status === 200) challenges.push(((await res.json()) as { challenge: string }).challenge)
      else if (res.status === 429) {
        expect(await res.json()).toMatchObject({ error: 'RateLimited', message: expect.stringContaining('device-binding challenges for this session') })
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(20).fill(429)])

    const mine = written.slice(1)
    expect(mine).toHaveLength(11)
    expect(new Set(mine.map((r) => r.identifier))).toEqual(new Set([mine[0]!.identifier]))
    expect(mine[0]!.identifier).not.toBe(written[0]!.identifier)
    // Of the session's 11 challenges only the latest is left; the other session's is untouched.
    expect(await left(mine.slice(0, -1))).toBe(0)
    const device = await newDevice()
    expect((await register(jar, challenges[1]!, device)).status).toBe(403)
    expect((await register(jar, challenges.at(-1)!, device)).status).toBe(200)
    expect((await register(other, othersChallenge, await newDevice())).status).toBe(200)

    // The limit is per minute: the next window answers again (409 now: this session is bound).
    clock.now += minute
    expect((await jar.get('/auth/dbsc/challenge')).status).toBe(409)
  })

  it('refresh challenges too: asking again drops the one before, so a session holds one per purpose', async () => {
    const { handler, clock, written, left } = server()
    const jar = new Jar(handler)
    const device = await newDevice()
    const registered = await register(jar, await signIn(jar), device)
    const { session_identifier: id } = (await registered.json()) as { session_identifier: string }
    clock.now += 600_000
    const asked: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await jar.request('/auth/dbsc/refresh', { method: 'POST', headers: { 'sec-secure-session-id': sf(id) } })
      expect(res.status).toBe(403)
      asked.push(/^"([^"]+)"/.exec(res.headers.get('secure-session-challenge')!)![1]!)
    }
    const refreshes = written.filter((r) => r.identifier.startsWith('dbsc:refresh:'))
    expect(refreshes).toHaveLength(5)
    expect(await left(refreshes.slice(0, -1))).toBe(0)
    const signed = await jar.request('/auth/dbsc/refresh', {
      method: 'POST',
      headers: { 'sec-secure-session-id': sf(id), 'secure-session-response': sf(await proof(asked.at(-1)!, device.privateKey)) },
    })
    expect(signed.status).toBe(200)
  })

  const writes: Record<string, (jar: Jar) => Promise<unknown>> = {
    'an email sign-in link': requestLink,
    'passkey options': (jar) => jar.get('/auth/webauthn-options/passkey?action=authenticate'),
    'a sign-in offering device binding': signIn,
  }

  it.each(Object.keys(writes))('once every lifetime has passed, %s purges the expired email tokens, WebAuthn and DBSC challenges', async (kind) => {
    const { handler, clock, written, left } = server()
    const jar = new Jar(handler)
    await signIn(jar)
    expect((await jar.get('/auth/webauthn-options/passkey?action=authenticate')).status).toBe(200)
    expect((await requestLink(jar)).status).toBe(302)
    const stale = [...written]
    expect(stale.map(kindOf)).toEqual(['dbsc', 'webauthn', 'email'])

    clock.now += 24 * 3600_000 + minute // the email link's 24 hours, the longest lifetime
    await writes[kind]!(new Jar(handler))
    const fresh = written.slice(stale.length)
    expect(fresh.length).toBeGreaterThan(0)
    expect(await left(stale)).toBe(0)
    expect(await left(fresh)).toBe(fresh.length)
  })

  it('a write purges at most 100 expired records: a bounded batch, not the whole backlog', async () => {
    const { handler, written, left } = server()
    const backlog = Array.from({ length: 150 }, (_, i) => ({ identifier: `webauthn:old-${i}`, token: randomUUID(), expires: new Date(Date.UTC(2025, 0, 1, 0, i)) }))
    for (const record of backlog) await store.createVerificationToken!(record)
    expect((await new Jar(handler).get('/auth/webauthn-options/passkey?action=authenticate')).status).toBe(200)
    expect(await left(backlog)).toBe(50)
    expect(await left(written)).toBe(1)
  })

  /** Whether `identifier`'s code is still stored: one attempt at it finds it ('wrong') or finds none. */
  const codeLeft = async (identifier: string) => (await store.useVerificationCode!({ identifier, codes: ['-'], maxAttempts: 1000 })).result !== 'none'

  it.each(Object.keys(writes))('once their 10 minutes have passed, %s purges the expired email codes too', async (kind) => {
    const { handler, clock, written } = server()
    const asked: string[] = []
    for (let i = 0; i < 3; i++) {
      expect((await requestLink(new Jar(handler))).status).toBe(302)
      asked.push(written.at(-1)!.identifier)
    }
    expect(await Promise.all(asked.map(codeLeft))).toEqual([true, true, true])

    clock.now += 10 * minute + 1000
    await writes[kind]!(new Jar(handler))
    expect(await Promise.all(asked.map(codeLeft))).toEqual([false, false, false])
  })

  it('a write purges at most 100 expired codes: a bounded batch, not the whole backlog', async () => {
    const { handler } = server()
    const backlog = Array.from({ length: 150 }, (_, i) => ({ identifier: `old-${i}@example.com`, code: randomUUID(), expires: new Date(Date.UTC(2025, 0, 1, 0, i)) }))
    for (const record of backlog) await store.createVerificationCode!(record)
    expect((await new Jar(handler).get('/auth/webauthn-options/passkey?action=authenticate')).status).toBe(200)
    expect((await Promise.all(backlog.map((r) => codeLeft(r.identifier)))).filter(Boolean)).toHaveLength(50)
  })
})
