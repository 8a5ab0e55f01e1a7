/**
 * The WebAuthn flow over the PostgreSQL adapter (PGlite), with two servers sharing one database:
 * a challenge issued by one is accepted once by either, and a failed registration leaves no rows.
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fromPGlite, migrate, PostgresAdapter, type Queryable } from '../../src/adapters/postgres/index.js'
import type { Adapter } from '../../src/core/types.js'
import { passkeyApp, serve } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { browserAnd } from '../support/browser-and.js'
import { Ceremony } from './support/ceremony.js'

let tab: AuthenticatorPage
let db: Queryable
let adapter: Adapter

const env = browserAnd(() => serve({ handler: async () => new Response(null, { status: 404 }) }))
beforeAll(async () => {
  db = fromPGlite(await PGlite.create())
  await migrate(db)
  adapter = PostgresAdapter(db)
  tab = await openWithAuthenticator(env.browser, env.server.origin + '/')
})

afterAll(async () => {
  await db?.end?.()
})

test('two servers, one database: register on one, sign in across both, and a challenge counts once', async () => {
  const one = passkeyApp({}, adapter)
  const two = passkeyApp({}, adapter)
  const c = new Ceremony(tab.page, one.handler, env.server.origin)
  const email = 'pg-user@example.com'
  const before = Date.now()
  const options = await c.options('register', { email })
  const created = await c.sign('register', options.body.options)
  const reg = await c.post('register', created, two.handler)
  expect(reg.status, JSON.stringify(reg.body)).toBe(200)
  const user = (await adapter.getUserByEmail!(email))!
  const [stored] = await adapter.listAuthenticatorsByUserId!(user.id)
  expect(stored).toMatchObject({ credentialID: created.id, counter: expect.any(Number), transports: 'internal' })
  // When it was registered is kept (migration 3), for the owner's list of passkeys.
  expect(stored!.createdAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
  expect(stored!.createdAt!.getTime()).toBeLessThanOrEqual(Date.now())

  const s = new Ceremony(tab.page, one.handler, env.server.origin)
  const auth = await s.options('authenticate')
  const cookie = s.jar.cookies.get('latchkey.challenge')!
  const signed = await s.sign('authenticate', auth.body.options)
  expect((await s.post('authenticate', signed, two.handler)).status).toBe(200)
  expect((await adapter.getAuthenticator!(created.id))!.counter).toBeGreaterThan(stored.counter)

  const replay = new Ceremony(tab.page, one.handler, env.server.origin)
  replay.jar.cookies.set('latchkey.challenge', cookie)
  const again = await replay.post('authenticate', signed)
  expect(again.reason).toBe('challenge')
  expect(one.logs.at(-1)).toMatch(/already used/)
})

test('createAuthenticator fails: no user, account or session rows remain', async () => {
  await tab.swapAuthenticator()
  const broken: Adapter = { ...adapter, createAuthenticator: async () => Promise.reject(new Error('connection reset')) }
  const app = passkeyApp({}, broken)
  const c = new Ceremony(tab.page, app.handler, env.server.origin)
  const email = 'pg-broken@example.com'
  const res = await c.run('register', { email })
  expect(res.status).toBe(500)
  expect(res.body.error).toBe('Configuration')
  expect(await adapter.getUserByEmail!(email)).toBeNull()
  expect(await adapter.getAccount!(res.data.id, 'passkey')).toBeNull()
  const counts = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email])
  expect(counts.rows[0].n).toBe('0')
})
