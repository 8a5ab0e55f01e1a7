/**
 * The WebAuthn routes at the HTTP level: a real Chromium virtual authenticator signs, the test
 * holds the responses and sends them (again, elsewhere, out of order) to the handler.
 */
import { UnstorageAdapter } from '@auth/unstorage-adapter'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import WebAuthn from '../../src/providers/webauthn.js'
import type { Handler } from '../../src/server/index.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { passkeyApp, serve, type PasskeyApp } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { browserAnd } from '../support/browser-and.js'
import { Ceremony } from './support/ceremony.js'
import { Jar } from '../support/jar.js'

let app: PasskeyApp
let tab: AuthenticatorPage
const challengeCookie = 'latchkey.challenge'
let n = 0
const freshEmail = () => `user${++n}-${Date.now()}@example.com`

const env = browserAnd(() => serve({ handler: (app = passkeyApp()).handler }))
beforeAll(async () => void (tab = await openWithAuthenticator(env.browser, env.server.origin + '/')))

const ceremony = (handler = app.handler) => new Ceremony(tab.page, handler, env.server.origin)

/** A new user with one passkey; the ceremony's jar is signed in. */
async function newUser(email = freshEmail()) {
  // A fresh device each time, so a discoverable sign-in has exactly one passkey to offer.
  await tab.swapAuthenticator()
  const c = ceremony()
  const reg = await c.run('register', { email })
  expect(reg.status, JSON.stringify(reg.body)).toBe(200)
  return { c, email, credentialId: reg.data.id as string }
}

describe('registration', () => {
  test('a new email registers: user, webauthn account and authenticator (base64url fields, joined transports), and a session', async () => {
    const email = freshEmail()
    const c = ceremony()
    const options = await c.options('register', { email: ` ${email.toUpperCase()} ` })
    expect(options.status).toBe(200)
    expect(options.body.action).toBe('register')
    expect(options.body.options.rp).toEqual({ id: 'localhost', name: 'localhost' })
    expect(options.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true })
    expect(options.body.options.user.name).toBe(email)
    expect(c.jar.cookies.has(challengeCookie)).toBe(true)
    const data = await c.sign('register', options.body.options)
    const res = await c.post('register', data)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.url).toBe(env.server.origin + '/')
    expect(c.jar.cookies.has(challengeCookie)).toBe(false)
    expect((await c.session()).user.email).toBe(email)

    const user = (await app.adapter.getUserByEmail(email))!
    const account = await app.adapter.getAccount(data.id, 'passkey')
    expect(account).toMatchObject({ type: 'webauthn', provider: 'passkey', providerAccountId: data.id, userId: user.id })
    const [authenticator] = await app.adapter.listAuthenticatorsByUserId(user.id)
    expect(authenticator).toMatchObject({ credentialID: data.id, providerAccountId: data.id, userId: user.id, credentialBackedUp: false })
    expect(authenticator.credentialPublicKey).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(authenticator.transports).toBe((data.response.transports as string[]).join(','))
  })

  test('refused: registration without an email, or with a malformed one', async () => {
    expect((await ceremony().options('register')).body).toMatchObject({ error: 'InvalidRequest' })
    expect((await ceremony().options('register', { email: 'not-an-email' })).status).toBe(400)
  })

  test('a signed-in user adds a second passkey to their own account, and cannot add one for another email', async () => {
    const { c, email, credentialId } = await newUser()
    const user = (await app.adapter.getUserByEmail(email))!
    const options = await c.options('register')
    expect(options.body.options.excludeCredentials.map((x: { id: string }) => x.id)).toEqual([credentialId])
    expect((await c.options('register', { email: 'someone-else@example.com' })).status).toBe(403)
    await tab.swapAuthenticator()
    const second = await c.run('register')
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect((await app.adapter.listAuthenticatorsByUserId(user.id)).map((a) => a.credentialID).sort()).toEqual([credentialId, second.data.id].sort())
  })
})

describe('authentication', () => {
  test('options asked for twice (two tabs): either response completes, each once', async () => {
    const { email } = await newUser()
    const c = ceremony()
    const tabOne = await c.options('authenticate')
    const tabTwo = await c.options('authenticate')
    const fromOne = await c.sign('authenticate', tabOne.body.options)
    const fromTwo = await c.sign('authenticate', tabTwo.body.options)
    expect((await c.post('authenticate', fromOne)).status).toBe(200)
    expect((await c.session()).user.email).toBe(email)
    expect((await c.post('authenticate', fromTwo)).status).toBe(200)
    expect((await c.post('authenticate', fromOne)).reason).toBe('challenge')
  })

  test('discoverable and with an email; the counter is stored', async () => {
    const { email, credentialId } = await newUser()
    const discoverable = ceremony()
    const options = await discoverable.options('authenticate')
    expect(options.body.options.allowCredentials).toBeUndefined()
    expect(options.body.enableConditionalUI).toBe(true)
    const data = await discoverable.sign('authenticate', options.body.options)
    const res = await discoverable.post('authenticate', data)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await discoverable.session()).user.email).toBe(email)
    const stored = (await app.adapter.getAuthenticator(credentialId))!
    expect(stored.counter).toBeGreaterThan(0)

    const byEmail = ceremony()
    const withEmail = await byEmail.options('authenticate', { email: email.toUpperCase() })
    expect(withEmail.body.options.allowCredentials.map((x: { id: string }) => x.id)).toContain(credentialId)
    const signed = await byEmail.sign('authenticate', withEmail.body.options)
    expect((await byEmail.post('authenticate', signed)).status).toBe(200)
    expect((await byEmail.session()).user.email).toBe(email)
    expect((await app.adapter.getAuthenticator(credentialId))!.counter).toBeGreaterThan(stored.counter)
  })

  test('signing in with a passkey over a session the browser holds deletes that session', async () => {
    const { c } = await newUser()
    const replaced = c.jar.cookies.get('latchkey.session-token')!
    const options = await c.options('authenticate')
    const res = await c.post('authenticate', await c.sign('authenticate', options.body.options))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const current = c.jar.cookies.get('latchkey.session-token')!
    expect(current).not.toBe(replaced)
    expect(await app.adapter.getSessionAndUser(await storedSessionToken(replaced))).toBeNull()
    expect(await app.adapter.getSessionAndUser(await storedSessionToken(current))).not.toBeNull()
  })

  test('over an adapter that picks its own user ids (@auth/unstorage-adapter): the passkey belongs to the user it made, and signs in', async () => {
    const other = passkeyApp({}, UnstorageAdapter(createStorage({ driver: memoryDriver() })))
    await tab.swapAuthenticator()
    const email = freshEmail()
    const reg = await ceremony(other.handler).run('register', { email })
    expect(reg.status, JSON.stringify(reg.body)).toBe(200)
    const user = (await other.adapter.getUserByEmail!(email))!
    expect(await other.adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(1)
    expect(await other.adapter.getAccount!(reg.data.id, 'passkey')).toMatchObject({ userId: user.id })
    const again = ceremony(other.handler)
    const options = await again.options('authenticate')
    const res = await again.post('authenticate', await again.sign('authenticate', options.body.options))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await again.session()).user).toMatchObject({ id: user.id, email })
    // Passkeys over an adapter without these cannot clean up at an address's first proof: it says so at start.
    expect(other.logs.filter((line) => !/lacks deleteAuthenticator, deleteSessionsByUserId/.test(line))).toEqual([])
  })
})

describe('refused', () => {
  test('a replayed assertion: with a fresh challenge it is not this browser\'s; with its own challenge cookie the challenge is spent', async () => {
    const { email } = await newUser()
    const first = ceremony()
    const options = await first.options('authenticate')
    const cookie = first.jar.cookies.get(challengeCookie)!
    const data = await first.sign('authenticate', options.body.options)
    expect((await first.post('authenticate', data)).status).toBe(200)

    const attacker = ceremony()
    await attacker.options('authenticate')
    const replay = await attacker.post('authenticate', data)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('WebAuthnVerificationError')
    expect(replay.reason).toBe('challenge')
    expect(app.logs.at(-1)).toMatch(/signed a challenge this browser was not given/)
    expect(await attacker.session()).toBeNull()

    const copied = ceremony()
    copied.jar.cookies.set(challengeCookie, cookie)
    const again = await copied.post('authenticate', data)
    expect(again.reason).toBe('challenge')
    expect(await copied.session()).toBeNull()
    expect(app.logs.some((l) => l.includes('already used'))).toBe(true)
    expect(email).toBeTruthy()
  })

  test('a reused challenge: two assertions over one challenge, only the first counts', async () => {
    await newUser()
    const c = ceremony()
    const options = await c.options('authenticate')
    const cookie = c.jar.cookies.get(challengeCookie)!
    const one = await c.sign('authenticate', options.body.options)
    const two = await c.sign('authenticate', options.body.options)
    expect((await c.post('authenticate', one)).status).toBe(200)
    const other = ceremony()
    other.jar.cookies.set(challengeCookie, cookie)
    const res = await other.post('authenticate', two)
    expect(res.status).toBe(400)
    expect(res.reason).toBe('challenge')
    expect(await other.session()).toBeNull()
  })

  test('a registration challenge cannot finish a sign-in, nor one provider\'s another\'s', async () => {
    await newUser()
    const c = ceremony()
    const reg = await c.options('register', { email: freshEmail() })
    const data = await c.sign('register', reg.body.options)
    const res = await c.post('authenticate', { ...data, response: { ...data.response, authenticatorData: 'AA', signature: 'AA' } })
    expect(res.reason).toBe('challenge')
  })

  test('a wrong origin', async () => {
    await newUser()
    const elsewhere = app.variant({ providers: [Passkey({ relyingParty: { origin: 'https://app.example.com' } })] })
    const c = ceremony()
    const options = await c.options('authenticate')
    const data = await c.sign('authenticate', options.body.options)
    const res = await c.post('authenticate', data, elsewhere)
    expect(res.status).toBe(401)
    expect(res.reason).toBe('verification')
    expect(app.logs.at(-1)).toMatch(/origin "http:\/\/localhost:\d+", expected "https:\/\/app.example.com"/)
    expect(await c.session()).toBeNull()
  })

  test('a wrong RP ID', async () => {
    await newUser()
    const elsewhere = app.variant({ providers: [Passkey({ relyingParty: { id: 'example.com' } })] })
    const c = ceremony()
    const data = await c.sign('authenticate', (await c.options('authenticate')).body.options)
    const res = await c.post('authenticate', data, elsewhere)
    expect(res.reason).toBe('verification')
    expect(app.logs.at(-1)).toMatch(/RP ID/i)
    expect(await c.session()).toBeNull()

    // Registration too.
    const r = ceremony()
    const reg = await r.options('register', { email: freshEmail() })
    const created = await r.sign('register', reg.body.options)
    const refused = await r.post('register', created, elsewhere)
    expect(refused.reason).toBe('verification')
    expect(await app.adapter.getAuthenticator(created.id)).toBeNull()
  })

  test('a counter that goes backwards: the authenticator may be cloned', async () => {
    const { credentialId } = await newUser()
    await app.adapter.updateAuthenticatorCounter(credentialId, 1000)
    const c = ceremony()
    const res = await c.run('authenticate')
    expect(res.status).toBe(401)
    expect(res.reason).toBe('counter')
    expect(app.logs.at(-1)).toMatch(/counter to exceed 1000, got \d+: the authenticator may have been cloned/)
    expect((await app.adapter.getAuthenticator(credentialId))!.counter).toBe(1000)
    expect(await c.session()).toBeNull()
  })

  test('a removed passkey is an unknown credential', async () => {
    const { credentialId } = await newUser()
    await app.adapter.deleteAuthenticator(credentialId)
    const res = await ceremony().run('authenticate')
    expect(res.reason).toBe('unknown-credential')
  })

  test('the callback needs the CSRF token, a known action and a WebAuthn response', async () => {
    const c = ceremony()
    await c.options('authenticate')
    const noCsrf = await c.jar.postJson('/auth/callback/passkey', { action: 'authenticate', data: { id: 'x', response: {} } }, { 'x-auth-return-redirect': '1' })
    expect((await noCsrf.json()).error).toBe('MissingCSRF')
    expect((await c.post('authenticate', 'not json')).body.error).toBe('InvalidRequest')
    const csrfToken = await c.jar.csrf()
    const bad = await c.jar.postJson('/auth/callback/passkey', { action: 'login', data: {}, csrfToken })
    expect(bad.status).toBe(400)
    expect((await c.options('login' as 'register')).body.error).toBe('InvalidRequest')
  })
})

describe('adapter failures leave nothing half-made', () => {
  function failing(method: 'createAuthenticator' | 'updateAuthenticatorCounter'): { app: PasskeyApp; handler: Handler } {
    const adapter = MemoryAdapter()
    const broken = passkeyApp({}, Object.assign(adapter, { [method]: async () => Promise.reject(new Error('disk full')) }))
    return { app: broken, handler: broken.handler }
  }

  test('createAuthenticator fails: a clear error, and no user, account or session remains', async () => {
    const { app: broken, handler } = failing('createAuthenticator')
    await tab.swapAuthenticator()
    const c = ceremony(handler)
    const email = freshEmail()
    const res = await c.run('register', { email })
    expect(res.status).toBe(500)
    expect(res.body.error).toBe('Configuration')
    expect(broken.logs.join('\n')).toMatch(/createAuthenticator threw \(disk full\)/)
    expect(await broken.adapter.getUserByEmail(email)).toBeNull()
    expect(await broken.adapter.getAccount(res.data.id, 'passkey')).toBeNull()
    expect(await c.session()).toBeNull()
  })

  test('updateAuthenticatorCounter fails: a clear error and no session', async () => {
    const { app: broken, handler } = failing('updateAuthenticatorCounter')
    await tab.swapAuthenticator()
    const c = ceremony(handler)
    expect((await c.run('register', { email: freshEmail() })).status).toBe(200)
    const signIn = ceremony(handler)
    const res = await signIn.run('authenticate')
    expect(res.status).toBe(500)
    expect(res.body.error).toBe('Configuration')
    expect(broken.logs.join('\n')).toMatch(/updateAuthenticatorCounter threw \(disk full\)/)
    expect(await signIn.session()).toBeNull()
  })
})

describe('managing passkeys', () => {
  async function remove(c: Ceremony, id: string) {
    const res = await c.jar.postJson('/auth/passkeys', { action: 'remove', id, csrfToken: await c.jar.csrf() })
    return { status: res.status, body: await res.json(), reason: res.headers.get('latchkey-webauthn-error') }
  }

  test('list and remove; the last passkey stays when nothing else can sign in; another user\'s is not found', async () => {
    const before = Date.now()
    const { c, credentialId } = await newUser()
    await tab.swapAuthenticator()
    const second = await c.run('register')
    const list = await (await c.jar.get('/auth/passkeys')).json()
    expect(list.passkeys.map((p: { id: string }) => p.id).sort()).toEqual([credentialId, second.data.id].sort())
    expect(list.passkeys[0]).toMatchObject({ deviceType: 'singleDevice', backedUp: false, transports: ['internal'] })
    // Each says when it was registered, so its owner can tell them apart.
    for (const p of list.passkeys) expect(Date.parse(p.createdAt)).toBeGreaterThanOrEqual(before)

    const stranger = await newUser()
    expect((await remove(stranger.c, credentialId)).status).toBe(404)

    const removed = await remove(c, credentialId)
    expect(removed.status).toBe(200)
    expect(removed.body.passkeys.map((p: { id: string }) => p.id)).toEqual([second.data.id])
    expect(await app.adapter.getAuthenticator(credentialId)).toBeNull()
    expect(await app.adapter.getAccount(credentialId, 'passkey')).toBeNull()

    const last = await remove(c, second.data.id)
    expect(last.status).toBe(409)
    expect(last.reason).toBe('last-credential')
    expect(last.body.message).toMatch(/last passkey/)
    expect(await app.adapter.getAuthenticator(second.data.id)).not.toBeNull()
  })

  test('the last passkey can go when an email provider can still sign the user in, once the address is proven', async () => {
    const withEmail = app.variant({ providers: [Passkey(), Email({ sendVerificationRequest: () => {} })] })
    const { c, email, credentialId } = await newUser()
    const res = await c.jar.request('/auth/passkeys', { method: 'POST' }).catch(() => null)
    expect(res?.status).toBe(403)
    const other = new Ceremony(tab.page, withEmail, env.server.origin)
    for (const [k, v] of c.jar.cookies) other.jar.cookies.set(k, v)
    const unproven = await other.jar.postJson('/auth/passkeys', { action: 'remove', id: credentialId, csrfToken: await other.jar.csrf() })
    expect(unproven.status).toBe(409)
    expect(unproven.headers.get('latchkey-webauthn-error')).toBe('last-credential')
    await app.adapter.updateUser({ id: (await app.adapter.getUserByEmail(email))!.id, emailVerified: new Date() })
    const removed = await other.jar.postJson('/auth/passkeys', { action: 'remove', id: credentialId, csrfToken: await other.jar.csrf() })
    expect(removed.status).toBe(200)
    expect((await removed.json()).passkeys).toEqual([])
  })

  test('the last passkey can go when the user has an account with a configured OAuth provider, and not with an unconfigured one', async () => {
    const github = { id: 'github', name: 'GitHub', type: 'oauth', clientId: 'c', clientSecret: 's', authorization: 'https://gh.example/a', token: 'https://gh.example/t', userinfo: 'https://gh.example/u', jwks_endpoint: undefined } as const
    const withOAuth = app.variant({ providers: [Passkey(), github] })
    const { c, email, credentialId } = await newUser()
    const userId = (await app.adapter.getUserByEmail(email))!.id
    await app.adapter.linkAccount({ userId, type: 'oauth', provider: 'gone', providerAccountId: `gone-${userId}` })
    const other = new Ceremony(tab.page, withOAuth, env.server.origin)
    for (const [k, v] of c.jar.cookies) other.jar.cookies.set(k, v)
    const refused = await other.jar.postJson('/auth/passkeys', { action: 'remove', id: credentialId, csrfToken: await other.jar.csrf() })
    expect(refused.status).toBe(409)
    await app.adapter.linkAccount({ userId, type: 'oauth', provider: 'github', providerAccountId: `gh-${userId}` })
    const removed = await other.jar.postJson('/auth/passkeys', { action: 'remove', id: credentialId, csrfToken: await other.jar.csrf() })
    expect(removed.status).toBe(200)
    expect((await removed.json()).passkeys).toEqual([])
  })

  test('signed out: 401', async () => {
    const res = await ceremony().jar.get('/auth/passkeys')
    expect(res.status).toBe(401)
    expect(res.headers.get('latchkey-webauthn-error')).toBe('signed-out')
  })
})

describe('configuration', () => {
  test('the webauthn provider prefers a resident key; relyingParty, timeout and userVerification are honoured', async () => {
    const handler = app.variant({
      providers: [WebAuthn({ relyingParty: { name: 'Latchkey Test' }, timeout: 60_000, userVerification: 'required', enableConditionalUI: false })],
    })
    const jar = new Jar(handler, env.server.origin)
    const reg = await (await jar.get(`/auth/webauthn-options/webauthn?action=register&email=${freshEmail()}`)).json()
    expect(reg.options.rp).toEqual({ id: 'localhost', name: 'Latchkey Test' })
    expect(reg.options.timeout).toBe(60_000)
    expect(reg.options.authenticatorSelection).toMatchObject({ residentKey: 'preferred', userVerification: 'required' })
    const auth = await (await jar.get('/auth/webauthn-options/webauthn')).json()
    expect(auth).toMatchObject({ action: 'authenticate', enableConditionalUI: false, options: { userVerification: 'required' } })
    expect((await jar.get('/auth/webauthn-options/nope')).status).toBe(404)
  })

  test('getUserInfo decides who a new passkey is for', async () => {
    await tab.swapAuthenticator()
    const email = freshEmail()
    const handler = app.variant({
      providers: [Passkey({ getUserInfo: (request) => ({ email: new URL(request.url).searchParams.get('handle') + '@example.com', name: 'From Hook' }) })],
    })
    const c = ceremony(handler)
    const handle = email.split('@')[0]
    const options = await c.options('register', { handle })
    expect(options.body.options.user).toMatchObject({ name: email, displayName: 'From Hook' })
    const res = await c.post('register', await c.sign('register', options.body.options))
    expect(res.status).toBe(200)
    expect(await app.adapter.getUserByEmail(email)).toMatchObject({ name: 'From Hook' })
  })

  test('the JWT session strategy: register, list, and sign in again', async () => {
    await tab.swapAuthenticator()
    const handler = app.variant({ session: { strategy: 'jwt' } })
    const c = ceremony(handler)
    const email = freshEmail()
    expect((await c.run('register', { email })).status).toBe(200)
    expect((await c.session()).user.email).toBe(email)
    const list = await (await c.jar.get('/auth/passkeys')).json()
    expect(list.passkeys).toHaveLength(1)
    const again = ceremony(handler)
    expect((await again.run('authenticate')).status).toBe(200)
    expect((await again.session()).user.email).toBe(email)
  })
})
