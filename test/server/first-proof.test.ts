/**
 * The first proof of an address takes away everything made before it (issue 41, items 2 and 3),
 * whatever the ways to sign in: the attacks as the issue writes them.
 * - `requireVerifiedEmail: false`: an attacker signs up with the victim's address, signs in with
 *   the password (a JWT session), links their own account at the Demo IdP; the victim proves the
 *   address by email code. The attacker's IdP sign-in then reaches an account of its own, and the
 *   old JWT session reads as no session (never re-issued, though every read is due).
 * - The defaults with passkeys and `mfa`: an attacker registers a passkey for an unused address,
 *   enrols an authenticator app (getting recovery codes), trusts a browser. The victim's first
 *   email-code sign-in is not asked for the attacker's second factor, and none of it works after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AdapterUser, OAuthConfig, SendVerificationRequestParams } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { startIdp, type Idp } from '../support/idp.js'
import { Jar } from '../support/jar.js'
import { testServer, testSecret } from '../support/server.js'
import { secretOf, totp } from '../support/totp.js'
import { bob, Browser, signIn as idpSignIn, startApp, type App } from '../oauth/harness.js'
import { softwareAssertion, softwareRegistration } from '../webauthn/support/software-authenticator.js'

const asJson = { 'x-auth-return-redirect': '1' }
const victim = 'victim@example.com'

describe('requireVerifiedEmail: false, JWT sessions: a sign-up for the victim’s address with a linked IdP account', () => {
  let app: App
  let idp: Idp
  const outbox: SendVerificationRequestParams[] = []
  const mail: PasswordEmail[] = []
  const adapter = MemoryAdapter()
  /** The store reads a session read makes for a marked JWT. */
  let userReads = 0
  const getUser = adapter.getUser
  adapter.getUser = (id) => {
    userReads++
    return getUser(id)
  }

  beforeAll(async () => {
    app = await startApp()
    idp = await startIdp({
      clients: [{ client_id: 'latchkey', client_secret: 'idp-secret', redirect_uris: [`${app.auth}/callback/idp`], token_endpoint_auth_method: 'client_secret_basic' }],
    })
    const provider: OAuthConfig<any> = { id: 'idp', name: 'Demo IdP', type: 'oidc', issuer: idp.issuer, jwks_endpoint: undefined, clientId: 'latchkey', clientSecret: 'idp-secret' }
    app.use({
      secret: testSecret,
      adapter,
      // Every read is due: a session that still read as the user would be re-issued.
      session: { strategy: 'jwt', updateAge: 0 },
      providers: [
        Password({ requireVerifiedEmail: false, breached: false, sendEmail: (m) => void mail.push(m) }),
        Email({ sendVerificationRequest: (params) => void outbox.push(params) }),
        provider,
      ],
    })
  })
  afterAll(async () => {
    await app?.close()
    await idp?.close()
  })

  const post = (browser: Browser, path: string, fields: Record<string, string>) => browser.postForm(app.auth, path, fields)
  const session = async (browser: Browser) => (await browser.request(`${app.auth}/session`)).json()

  it('the victim proves the address by email code: the linked account, the password and the JWT session are the attacker’s no more', async () => {
    // The attacker signs up with the victim's address and signs in at once (no confirmation asked).
    const attacker = new Browser()
    expect((await post(attacker, '/password/sign-up', { email: victim, password: 'attacker passphrase' })).status).toBe(200)
    expect((await post(attacker, '/callback/password', { email: victim, password: 'attacker passphrase' })).status).toBe(200)
    const squatted = (await adapter.getUserByEmail(victim)) as AdapterUser
    expect(squatted.emailVerified).toBeNull()
    // Signed in, the attacker links their own IdP account (bob's).
    const linked = await idpSignIn(attacker, app, 'idp', bob)
    expect(linked.error).toBeUndefined()
    const idpAccount = (await adapter.listAccountsByUserId(squatted.id)).find((a) => a.provider === 'idp')!
    expect(idpAccount).toBeDefined()
    expect((await session(attacker)).user.email).toBe(victim)
    // A copy of the attacker's JWT, to read after the proof.
    const held = new Browser()
    for (const [name, { value }] of attacker.jar.get('localhost')!) held.set(app.url, name, value)
    userReads = 0
    expect((await session(held)).user.email).toBe(victim)
    const readsBefore = userReads

    // The victim signs in by email code: the first proof of the address.
    const owner = new Browser()
    expect((await post(owner, '/signin/email', { email: victim })).status).toBe(200)
    const signedIn = await post(owner, '/callback/email', { email: victim, code: outbox.at(-1)!.code! })
    expect(signedIn.status).toBe(200)
    expect((await session(owner)).user).toMatchObject({ id: squatted.id, email: victim })
    expect((await adapter.getUser(squatted.id))!.emailVerified).toBeInstanceOf(Date)

    // The attacker's JWT reads as no session, and no new token is issued for it.
    for (const browser of [held, attacker]) {
      const read = await browser.request(`${app.auth}/session`)
      expect(await read.json()).toBeNull()
      const reissued = read.headers.getSetCookie().filter((c) => c.startsWith('latchkey.session-token=') && !/Max-Age=0/i.test(c))
      expect(reissued).toEqual([])
    }
    // The IdP account is unlinked: signing in with it reaches an account of its own.
    expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: idpAccount.providerAccountId })).toBeNull()
    const again = new Browser()
    await idpSignIn(again, app, 'idp', bob)
    const through = await session(again)
    expect(through.user.email).toBe(bob.email)
    expect(through.user.id).not.toBe(squatted.id)
    // The attacker's password is gone too; the owner is still signed in.
    expect(await (await post(new Browser(), '/callback/password', { email: victim, password: 'attacker passphrase' })).json()).toMatchObject({ error: 'CredentialsSignin' })
    expect((await adapter.listAccountsByUserId(squatted.id)).map((a) => a.provider)).toEqual(['email'])
    // The owner's session, made after the proof, is not marked: its reads ask the store nothing.
    userReads = 0
    expect((await session(owner)).user.id).toBe(squatted.id)
    expect(userReads).toBe(0)
    // Before the proof, the attacker's marked session cost one user read each.
    expect(readsBefore).toBe(1)
  })
})

describe('the defaults with passkeys and mfa: a passkey and an authenticator app set up for an unused address', () => {
  function server() {
    const removed: string[] = []
    const made = testServer({ mfa: { issuer: 'Latchkey Test' }, extraProviders: [Passkey()], events: { mfaRemoved: ({ user, factor }) => void removed.push(`${user.email} ${factor.label}`) } })
    return { ...made, removed }
  }
  type Made = ReturnType<typeof server>
  const mfa = async (jar: Jar, fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
  const passkey = async (jar: Jar, action: 'register' | 'authenticate', data: unknown) =>
    jar.postJson('/auth/callback/passkey', { action, data, csrfToken: await jar.csrf() }, asJson)
  const options = async (jar: Jar, query: Record<string, string>) =>
    ((await (await jar.get(`/auth/webauthn-options/passkey?${new URLSearchParams(query)}`)).json()) as { options: any }).options

  /** The attacker's set-up: a passkey, an app with its recovery codes, and a trusted browser. */
  async function squat(made: Made) {
    const attacker = new Jar(made.handler)
    const key = softwareRegistration(await options(attacker, { action: 'register', email: victim }), attacker.origin)
    expect((await passkey(attacker, 'register', key.response)).status).toBe(200)
    const userId = (await made.adapter.getUserByEmail(victim))!.id
    const enrolled = (await (await mfa(attacker, { action: 'enroll', label: 'Attacker' })).json()) as { uri: string }
    const secret = secretOf(enrolled.uri)
    const confirmed = await mfa(attacker, { action: 'confirm', id: (await made.adapter.listFactorsByUserId(userId))[0]!.id, code: totp(secret, made.clock.now) })
    const { newRecoveryCodes } = (await confirmed.json()) as { newRecoveryCodes: string[] }
    expect(newRecoveryCodes).toHaveLength(10)
    made.clock.now += 30_000
    // Another browser: the key without user verification is one factor, so the app's code is asked; this browser is trusted.
    const trusted = new Jar(made.handler)
    const assertion = softwareAssertion(key, await options(trusted, { action: 'authenticate' }), trusted.origin, { verified: false })
    expect(await (await passkey(trusted, 'authenticate', assertion)).json()).toMatchObject({ error: 'SecondFactorRequired' })
    const verified = await trusted.postForm('/auth/mfa/verify', { csrfToken: await trusted.csrf(), code: totp(secret, made.clock.now), trustDevice: 'true' }, asJson)
    expect(verified.status).toBe(200)
    expect(trusted.cookies.has('latchkey.mfa-device')).toBe(true)
    expect((await made.adapter.listFactorsByUserId(userId)).map((f) => f.type).sort()).toEqual(['device', 'totp'])
    made.clock.now += 30_000
    return { userId, key, secret, recoveryCodes: newRecoveryCodes, trusted }
  }

  it('the victim’s first email-code sign-in asks no second factor, and the attacker’s app, recovery codes and trusted browser are gone', async () => {
    const made = server()
    const squatted = await squat(made)

    const owner = new Jar(made.handler)
    await owner.postForm('/auth/signin/email', { csrfToken: await owner.csrf(), email: victim })
    const signedIn = await owner.postForm('/auth/callback/email', { csrfToken: await owner.csrf(), email: victim, code: made.outbox.at(-1)!.code! }, asJson)
    expect(await signedIn.json()).not.toHaveProperty('error')
    expect(owner.cookies.has('latchkey.mfa-pending')).toBe(false)
    expect((await owner.session()).user).toMatchObject({ id: squatted.userId, email: victim })

    expect(await made.adapter.listFactorsByUserId(squatted.userId)).toEqual([])
    expect(await made.adapter.countRecoveryCodes(squatted.userId)).toBe(0)
    // The app is told, as when a factor is removed at /mfa.
    expect(made.removed).toEqual([`${victim} Attacker`])
    expect(await (await owner.get('/auth/mfa')).json()).toMatchObject({ factors: [], recoveryCodes: 0, trustedDevices: [] })

    // The attacker's trusted browser, with the passkey gone, signs in no more; its code and recovery codes finish nothing.
    const retry = softwareAssertion(squatted.key, await options(squatted.trusted, { action: 'authenticate' }), squatted.trusted.origin, { verified: false, counter: 2 })
    expect((await passkey(squatted.trusted, 'authenticate', retry)).status).toBe(401)
    expect(await squatted.trusted.session()).toBeNull()
    // The owner's later sign-ins are not asked for the attacker's app either.
    const later = new Jar(made.handler)
    await later.postForm('/auth/signin/email', { csrfToken: await later.csrf(), email: victim })
    await later.postForm('/auth/callback/email', { csrfToken: await later.csrf(), email: victim, code: made.outbox.at(-1)!.code! }, asJson)
    expect((await later.session()).user.id).toBe(squatted.userId)
  })

  it('a pending sign-in the attacker started before the proof finishes with neither the app’s code nor a recovery code', async () => {
    const made = server()
    const squatted = await squat(made)
    // The attacker starts a sign-in that waits for its second factor (a browser that is not trusted).
    const pending = new Jar(made.handler)
    const assertion = softwareAssertion(squatted.key, await options(pending, { action: 'authenticate' }), pending.origin, { verified: false, counter: 3 })
    expect(await (await passkey(pending, 'authenticate', assertion)).json()).toMatchObject({ error: 'SecondFactorRequired' })

    const owner = new Jar(made.handler)
    await owner.postForm('/auth/signin/email', { csrfToken: await owner.csrf(), email: victim })
    await owner.postForm('/auth/callback/email', { csrfToken: await owner.csrf(), email: victim, code: made.outbox.at(-1)!.code! }, asJson)
    expect((await owner.session()).user.id).toBe(squatted.userId)

    const verify = async (fields: Record<string, string>) => (await pending.postForm('/auth/mfa/verify', { csrfToken: await pending.csrf(), ...fields }, asJson)).json()
    expect(await verify({ code: totp(squatted.secret, made.clock.now) })).toMatchObject({ error: 'InvalidCode' })
    expect(await verify({ recoveryCode: squatted.recoveryCodes[0]! })).toMatchObject({ error: 'InvalidCode' })
    expect(await pending.session()).toBeNull()
  })
})
