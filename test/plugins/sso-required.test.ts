/**
 * Required single sign-on and home-realm discovery (issue 48, item 2), against a real OpenID
 * provider (oidc-provider): while an organization's connection is required, an address of its
 * verified domain is refused every other way in (a password, a sign-up, an email link or code)
 * with `SsoRequired`, from the domain alone and before anything is sent, checked or made; the
 * connection itself signs it in. Discovery answers two addresses of a domain, one with an account
 * and one without, with the same bytes, as fast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { atIdp, Browser, deliver, sessionOf, alice, startApp } from '../oauth/harness.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import Password from '../../src/providers/password.js'
import { hashPassword } from '../../src/server/features/password/hash.js'
import type { SendVerificationRequestParams } from '../../src/core/types.js'
import { expectSameTime } from '../support/fastest.js'
import { startIdp, type Idp } from '../support/idp.js'
import { newStore, orgAdmin, post, ssoApp, verifyDomain, type SsoApp } from './sso-support.js'

let idp: Idp
let app: SsoApp
const outbox: SendVerificationRequestParams[] = []
const passwordMail: unknown[] = []

beforeAll(async () => {
  const started = await startApp()
  idp = await startIdp({ clients: [{ client_id: 'acme', client_secret: 'acme-secret', redirect_uris: [`${started.auth}/callback/sso`] }] })
  const adapter = newStore()
  app = await ssoApp(adapter, {
    providers: [
      Credentials({ credentials: { username: {} }, authorize: async ({ username }) => (await adapter.getUser!(String(username))) ?? null }),
      Password({ breached: false, sendEmail: (m) => void passwordMail.push(m) }),
      Email({ sendVerificationRequest: (p) => void outbox.push(p) }),
    ],
  }, started)
})
afterAll(async () => {
  await app?.close()
  await idp?.close()
})

/** An organization with example.com verified and an OIDC connection for it; `required` as given. */
async function acme(required: boolean) {
  const admin = await orgAdmin(app)
  const made = await post(admin.browser, app, `/sso-connections/${admin.organizationId}`, {
    action: 'create', kind: 'oidc', name: 'Acme IdP', issuer: idp.issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: ['example.com'], required,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  await verifyDomain(app.adapter, admin.organizationId, 'example.com')
  return { ...admin, connection: made.body as { id: string } }
}

/** A user of `email` with the password `password-of-<email>`, address proven. */
async function withPassword(email: string) {
  const user = await app.adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: new Date() })
  await app.adapter.setPasswordHash!(user.id, await hashPassword(`password-of-${email}`))
  return user
}

/** The refusal's code: the JSON answer's `error`, else its URL's `?error=`; null for none. */
const errorOf = async (response: Response) => {
  const body = (await response.json()) as { url: string; error?: string }
  return body.error ?? new URL(body.url).searchParams.get('error')
}

async function passwordSignIn(browser: Browser, email: string) {
  return browser.postForm(app.auth, '/callback/password', { email, password: `password-of-${email}` })
}

describe('a required connection', () => {
  it('refuses a password, a sign-up and an email for its domain with SsoRequired, the same for an address with an account and one without, sending nothing; the connection signs in', async () => {
    const { organizationId, connection, browser: admin } = await acme(false)
    await withPassword('alice@example.com')
    await withPassword('carol@other.test')
    // Not required yet: the password signs alice in.
    const before = new Browser()
    expect(await errorOf(await passwordSignIn(before, 'alice@example.com'))).toBeNull()
    expect((await sessionOf(before, app))?.user.email).toBe('alice@example.com')

    const updated = await post(admin, app, `/sso-connections/${organizationId}`, { action: 'update', id: connection.id, required: true })
    expect(updated.body.required).toBe(true)

    const browser = new Browser()
    const known = await passwordSignIn(browser, 'alice@example.com')
    const unknown = await passwordSignIn(browser, 'nobody@example.com')
    expect(known.status).toBe(unknown.status)
    const [knownBody, unknownBody] = [await known.text(), await unknown.text()]
    expect(knownBody).toBe(unknownBody)
    expect(JSON.parse(knownBody).error).toBe('SsoRequired')
    // In another case and with spaces: the same domain.
    expect(await errorOf(await passwordSignIn(browser, ' Alice@EXAMPLE.com '))).toBe('SsoRequired')
    expect(await sessionOf(browser, app)).toBeNull()

    const sent = outbox.length
    for (const email of ['alice@example.com', 'nobody@example.com']) {
      expect(await errorOf(await browser.postForm(app.auth, '/signin/email', { email }))).toBe('SsoRequired')
    }
    expect(outbox.length).toBe(sent)

    const mailed = passwordMail.length
    const signUp = await post(browser, app, '/password/sign-up', { email: 'newcomer@example.com', password: 'a long enough password 42' })
    expect(signUp).toMatchObject({ status: 403, body: { error: 'SsoRequired' } })
    expect(passwordMail.length).toBe(mailed)
    expect(await app.adapter.getUserByEmail!('newcomer@example.com')).toBeNull()

    // Another domain: the usual ways.
    const other = new Browser()
    expect(await errorOf(await passwordSignIn(other, 'carol@other.test'))).toBeNull()
    expect(await errorOf(await other.postForm(app.auth, '/signin/email', { email: 'dan@other.test' }))).toBeNull()
    expect(outbox.length).toBe(sent + 1)

    // The connection signs alice in.
    const started = await browser.postForm(app.auth, '/signin/sso', { email: 'alice@example.com', callbackUrl: '/dashboard' })
    const done = await deliver(browser, await atIdp(browser, new URL(((await started.json()) as { url: string }).url), alice))
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe('alice@example.com')
  })

  it('refuses an emailed code asked for before the connection became required, in the completion step', async () => {
    const { organizationId, connection, browser: admin } = await acme(false)
    const browser = new Browser()
    expect(await errorOf(await browser.postForm(app.auth, '/signin/email', { email: 'erin@example.com' }))).toBeNull()
    const code = outbox.at(-1)!.code!
    await post(admin, app, `/sso-connections/${organizationId}`, { action: 'update', id: connection.id, required: true })
    const answer = await browser.postForm(app.auth, '/callback/email', { email: 'erin@example.com', code })
    expect(await errorOf(answer)).toBe('SsoRequired')
    expect(await sessionOf(browser, app)).toBeNull()
    expect(await app.adapter.getUserByEmail!('erin@example.com')).toBeNull()
  })
})

describe('a required connection, and another organization', () => {
  it("refuses a sign-in through another organization's connection for an address of the required domain; nothing is made", async () => {
    await acme(true)
    // Another organization's connection (the same IdP, by its id): it asserts alice@example.com.
    const stranger = await orgAdmin(app)
    const theirs = await post(stranger.browser, app, `/sso-connections/${stranger.organizationId}`, {
      action: 'create', kind: 'oidc', name: 'Elsewhere', issuer: idp.issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: ['elsewhere.test'],
    })
    expect(theirs.status).toBe(200)
    const browser = new Browser()
    const started = await browser.postForm(app.auth, '/signin/sso', { connection: theirs.body.id, callbackUrl: '/dashboard' })
    const done = await deliver(browser, await atIdp(browser, new URL(((await started.json()) as { url: string }).url), alice))
    // Refused: back at the sign-in page (its organization's form first), not the error page.
    const landed = new URL(done.location, app.url)
    expect([landed.pathname, landed.searchParams.get('error')]).toEqual(['/auth/signin', 'SsoRequired'])
    expect(await sessionOf(browser, app)).toBeNull()
    expect(await app.adapter.getUserByAccount!({ provider: 'sso', providerAccountId: `${theirs.body.id}:alice` })).toBeNull()
  })
})

describe('discovery', () => {
  it('answers two addresses of a domain, one with an account and one without, with the same bytes', async () => {
    const { connection } = await acme(true)
    await withPassword(`known-${connection.id}@example.com`)
    const browser = new Browser()
    const answer = async (email: string) => {
      const response = await browser.request(`${app.auth}/sso-discover?email=${encodeURIComponent(email)}`)
      const headers = [...response.headers].filter(([name]) => name !== 'date')
      return { status: response.status, headers, body: await response.text() }
    }
    const known = await answer(`known-${connection.id}@example.com`)
    const unknown = await answer(`nobody-${connection.id}@example.com`)
    expect(unknown).toEqual(known)
    expect(JSON.parse(known.body)).toMatchObject({ domain: 'example.com', connection: { required: true, provider: 'sso' } })
  })

  it('answers as fast for an address with an account as for one without (the fastest of 31 timed pairs within 0.5x..2x)', async () => {
    await acme(true)
    await withPassword('timed@example.com')
    const browser = new Browser()
    const ask = (email: string) => async () => {
      const response = await browser.request(`${app.auth}/sso-discover?email=${email}`)
      await response.arrayBuffer()
      return new Response(null, { status: response.status })
    }
    const times = await expectSameTime(async () => {}, 31, ask('timed@example.com'), ask(`nobody-${Date.now()}@example.com`))
    console.log(`sso-discover, fastest answer: known ${times.known.toFixed(2)} ms, unknown ${times.unknown.toFixed(2)} ms`)
  })
})
