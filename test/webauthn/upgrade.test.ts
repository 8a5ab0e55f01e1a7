/**
 * Automatic passkey upgrades (conditional create) in Chromium with the virtual authenticator:
 * after a password sign-in the passkey client asks for a passkey without a prompt, where the
 * browser's own `getClientCapabilities()` reports `conditionalCreate` (Chromium's answer, not
 * stubbed). Headless Chromium has no password manager to complete a conditional create, so where a
 * test needs the passkey made, `navigator.credentials.create` is stubbed in the page: it records the
 * `mediation` asked for and lets the virtual authenticator answer as a plain create (with presence).
 * The server accepts it only right after that sign-in, once, and never on another or stale session.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import { browserAndPasskeyApp, passkeyApp } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { Ceremony } from './support/ceremony.js'
import { softwareRegistration } from './support/software-authenticator.js'
import { secretOf, totp } from '../support/totp.js'

type Outcome = { ok: true; value: any } | { ok: false; name: string; code?: string; reason?: string; message: string }

let tab: AuthenticatorPage
let clock = Date.now()
const events: string[] = []

const password = Credentials({
  credentials: { username: {}, password: { type: 'password' } },
  authorize: ({ username, password }) => (password === 'right' ? { id: `pw-${username}`, email: `${username}@example.com`, name: String(username) } : null),
})

const env = browserAndPasskeyApp(() =>
  passkeyApp({
    providers: [Passkey({ automaticUpgrade: true }), password],
    now: () => clock,
    events: { linkAccount: ({ account }) => void events.push(`linkAccount ${account.provider}`) },
  }))

beforeAll(async () => {
  tab = await openWithAuthenticator(env.browser, env.running.origin + '/')
})

let n = 0
const freshName = () => `upgrade${++n}x${Date.now()}`
const run = (script: string): Promise<Outcome> => tab.page.evaluate((s) => (window as any).outcome(() => (0, eval)(s)), script) as Promise<Outcome>
const upgradeCookie = 'latchkey.upgrade'

/** A jar signed in with a password, against the app's handler (server-level ceremonies, the browser signs). */
async function passwordJar(name: string) {
  const c = new Ceremony(tab.page, env.app.handler, env.running.origin)
  const res = await c.jar.postJson('/auth/callback/credentials', { csrfToken: await c.jar.csrf(), username: name, password: 'right' }, { 'x-auth-return-redirect': '1' })
  expect(res.status).toBe(200)
  return c
}

describe('automatic passkey upgrade', () => {
  test("Chromium's own getClientCapabilities reports conditionalCreate, and passkey.capabilities() passes it on", async () => {
    const caps = await run('window.passkey.capabilities()')
    expect(caps).toMatchObject({ ok: true, value: { conditionalCreate: true } })
  })

  test('right after a password sign-in, upgrade() asks for a conditional create and the passkey lands (create stubbed in the page: no password manager headless); it signs in afterwards, and the owner is told', async () => {
    await tab.swapAuthenticator()
    await tab.page.evaluate(() => {
      const create = navigator.credentials.create.bind(navigator.credentials)
      const asked: unknown[] = []
      Object.assign(window, { mediations: asked })
      navigator.credentials.create = (options?: CredentialCreationOptions) => {
        const { mediation, ...rest } = options as CredentialCreationOptions & { mediation?: string }
        asked.push(mediation)
        return create(rest)
      }
    })
    const name = freshName()
    expect(await tab.page.evaluate((u) => (window as any).signInWithPassword(u), name)).toBe(200)
    events.length = 0
    const upgraded = await run('window.passkey.upgrade()')
    expect(upgraded, JSON.stringify(upgraded)).toEqual({ ok: true, value: { url: env.running.origin + '/' } })
    expect(await tab.page.evaluate(() => (window as any).mediations)).toEqual(['conditional'])
    const [key] = await env.app.adapter.listAuthenticatorsByUserId(`pw-${name}`)
    expect(key).toBeDefined()
    expect(await env.app.adapter.getAccount(key!.credentialID, 'passkey')).toMatchObject({ userId: `pw-${name}` })
    expect(events).toEqual(['linkAccount passkey'])

    // A second upgrade after the same sign-in is refused: the marker was spent.
    expect(await run('window.passkey.upgrade()')).toMatchObject({ ok: false, code: 'AccessDenied', reason: 'upgrade' })

    await tab.page.evaluate(() => (window as any).signOut())
    expect((await run('window.passkey.signIn()')).ok).toBe(true)
    expect((await tab.page.evaluate(() => (window as any).session())).user.email).toBe(`${name}@example.com`)
  })

  test('refused without that sign-in: signed out, or signed in with a passkey', async () => {
    await tab.page.evaluate(() => (window as any).signOut())
    expect(await run('window.passkey.upgrade()')).toMatchObject({ ok: false, code: 'AccessDenied', reason: 'upgrade' })
    // Signed in by the passkey made above: a passkey sign-in leaves no upgrade marker.
    expect((await run('window.passkey.signIn()')).ok).toBe(true)
    expect(await run('window.passkey.upgrade()')).toMatchObject({ ok: false, code: 'AccessDenied', reason: 'upgrade' })
  })

  test('the options are marked and spent: a second ask, a replayed marker cookie, and a registration without the mark', async () => {
    await tab.swapAuthenticator()
    const name = freshName()
    const c = await passwordJar(name)
    const marker = c.jar.cookies.get(upgradeCookie)
    expect(marker).toBeTruthy()
    const options = await c.options('register', { upgrade: '1' })
    expect(options.status, JSON.stringify(options.body)).toBe(200)
    expect(c.jar.cookies.has(upgradeCookie)).toBe(false)
    // The same marker again (a copied cookie): its one-time record is gone.
    c.jar.cookies.set(upgradeCookie, marker!)
    const again = await c.options('register', { upgrade: '1' })
    expect(again).toMatchObject({ status: 403, reason: 'upgrade', body: { error: 'AccessDenied' } })
    expect(await env.app.adapter.listAuthenticatorsByUserId(`pw-${name}`)).toEqual([])
    // The marked options register, once.
    const data = await c.sign('register', options.body.options)
    expect((await c.post('register', data)).status).toBe(200)
    expect(await env.app.adapter.listAuthenticatorsByUserId(`pw-${name}`)).toHaveLength(1)
  })

  test("refused with a stale session, and with another sign-in's marker", async () => {
    const name = freshName()
    const old = await passwordJar(name)
    old.jar.cookies.delete(upgradeCookie)
    const start = clock
    try {
      // Two hours on, past session.freshAge and the marker's five minutes: the same user signs in elsewhere.
      clock += 2 * 3600_000
      const other = await passwordJar(name)
      const stale = await old.options('register', { upgrade: '1' })
      expect(stale).toMatchObject({ status: 403, reason: 'upgrade' })
      // That other sign-in's marker, copied to the old session, is not this session's.
      old.jar.cookies.set(upgradeCookie, other.jar.cookies.get(upgradeCookie)!)
      const copied = await old.options('register', { upgrade: '1' })
      expect(copied).toMatchObject({ status: 403, reason: 'upgrade' })
      // Unused, it still expires: five minutes on, the fresh session's own marker is refused too.
      clock += 6 * 60_000
      expect(await other.options('register', { upgrade: '1' })).toMatchObject({ status: 403, reason: 'upgrade' })
      expect(await env.app.adapter.listAuthenticatorsByUserId(`pw-${name}`)).toEqual([])
    } finally {
      clock = start
    }
  })

  test('a sign-in that needs its second factor leaves the marker once the factor is proven, not before', async () => {
    const withMfa = env.app.variant({ providers: [Passkey({ automaticUpgrade: true }), password], now: () => clock, mfa: { issuer: 'Upgrade Test' } })
    const name = freshName()
    const start = clock
    try {
      const first = new Ceremony(tab.page, withMfa, env.running.origin)
      await first.jar.postJson('/auth/callback/credentials', { csrfToken: await first.jar.csrf(), username: name, password: 'right' }, { 'x-auth-return-redirect': '1' })
      const started = (await (await first.jar.postForm('/auth/mfa', { csrfToken: await first.jar.csrf(), action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
      const secret = secretOf(started.uri)
      expect((await first.jar.postForm('/auth/mfa', { csrfToken: await first.jar.csrf(), action: 'confirm', id: started.factor.id, code: totp(secret, clock) })).status).toBe(200)

      const c = new Ceremony(tab.page, withMfa, env.running.origin)
      const asked = await c.jar.postJson('/auth/callback/credentials', { csrfToken: await c.jar.csrf(), username: name, password: 'right' }, { 'x-auth-return-redirect': '1' })
      expect(await asked.json()).toMatchObject({ error: 'SecondFactorRequired' })
      expect(c.jar.cookies.has(upgradeCookie)).toBe(false)
      clock += 60_000
      const proven = await c.jar.postForm('/auth/mfa/verify', { csrfToken: await c.jar.csrf(), code: totp(secret, clock) }, { 'x-auth-return-redirect': '1' })
      expect(proven.status).toBe(200)
      expect(c.jar.cookies.has(upgradeCookie)).toBe(true)
      expect(await c.options('register', { upgrade: '1' })).toMatchObject({ status: 200 })
    } finally {
      clock = start
    }
  })

  test('a provider without automaticUpgrade refuses upgrades and leaves no marker at sign-in', async () => {
    const plain = env.app.variant({ providers: [Passkey(), password], now: () => clock })
    const c = new Ceremony(tab.page, plain, env.running.origin)
    await c.jar.postJson('/auth/callback/credentials', { csrfToken: await c.jar.csrf(), username: freshName(), password: 'right' }, { 'x-auth-return-redirect': '1' })
    expect((await c.session())?.user).toBeTruthy()
    expect(c.jar.cookies.has(upgradeCookie)).toBe(false)
    expect(await c.options('register', { upgrade: '1' })).toMatchObject({ status: 403, reason: 'upgrade' })
  })
})

describe('an upgrade may come without user presence or verification (a software authenticator makes such a response)', () => {
  test('accepted from the marked options right after the sign-in; refused for an ordinary registration', async () => {
    const name = freshName()
    const c = await passwordJar(name)
    const marked = await c.options('register', { upgrade: '1' })
    const silent = softwareRegistration(marked.body.options, env.running.origin, { presence: false, verified: false })
    const accepted = await c.post('register', silent.response)
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
    expect((await env.app.adapter.getAuthenticator(silent.id))?.userId).toBe(`pw-${name}`)

    // Same user, same fresh session, options asked without the upgrade: presence is required.
    const plain = await c.options('register')
    expect(plain.status).toBe(200)
    const refused = await c.post('register', softwareRegistration(plain.body.options, env.running.origin, { presence: false, verified: false }).response)
    expect(refused).toMatchObject({ status: 400, reason: 'verification' })
    expect(await env.app.adapter.listAuthenticatorsByUserId(`pw-${name}`)).toHaveLength(1)
    // With presence it lands: the refusal was the flag, not the authenticator.
    const present = await c.options('register')
    expect((await c.post('register', softwareRegistration(present.body.options, env.running.origin).response)).status).toBe(200)
  })
})

describe('a store that fails to keep the marker', () => {
  test('the password sign-in still stands, without an upgrade marker, and the failure is logged', async () => {
    const store = MemoryAdapter()
    const failing = {
      ...store,
      createVerificationToken: (t: { identifier: string; token: string; expires: Date }) =>
        t.identifier === 'webauthn-upgrade' ? Promise.reject(new Error('disk full')) : store.createVerificationToken(t),
    }
    const broken = passkeyApp({ providers: [Passkey({ automaticUpgrade: true }), password] }, failing as ReturnType<typeof MemoryAdapter>)
    const c = new Ceremony(tab.page, broken.handler, env.running.origin)
    const res = await c.jar.postJson('/auth/callback/credentials', { csrfToken: await c.jar.csrf(), username: freshName(), password: 'right' }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(200)
    expect((await c.session())?.user).toBeTruthy()
    expect(c.jar.cookies.has(upgradeCookie)).toBe(false)
    expect(broken.logs.some((l) => l.includes('upgrade marker failed'))).toBe(true)
  })
})
