/**
 * Pre-account takeover through passkey registration (issue 19, security 1). Signed out, an
 * attacker registers a passkey for the victim's address, which nobody has proven. When the victim
 * first proves the address (an email link, or an OAuth sign-in linked by email), the attacker's
 * passkey, its account row and every session made before the proof are gone, and the victim is told.
 * Over HTTP: a real virtual authenticator (Chromium), email links, the Demo IdP for OpenID Connect;
 * run over the memory adapter and the PostgreSQL adapter (PGlite).
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { fromPGlite, migrate, PostgresAdapter, type Queryable } from '../../src/adapters/postgres/index.js'
import type { Adapter, AuthConfig, OAuthConfig, PasskeyInfo, SendVerificationRequestParams } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import { browserAnd } from '../support/browser-and.js'
import { startIdp, type Idp } from '../support/idp.js'
import { Jar } from '../support/jar.js'
import { lastLink } from '../support/server.js'
import { alice, bob, Browser as HttpBrowser, signIn as oauthSignIn } from '../oauth/harness.js'
import { passkeyApp, serve } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { Ceremony } from './support/ceremony.js'

let tab: AuthenticatorPage
let pglite: Queryable
let idp: Idp
const target = { handler: async (_: Request) => new Response(null, { status: 404 }) }

const env = browserAnd(() => serve(target))
beforeAll(async () => {
  pglite = fromPGlite(await PGlite.create())
  await migrate(pglite)
  tab = await openWithAuthenticator(env.browser, env.server.origin + '/')
  idp = await startIdp({
    clients: [{ client_id: 'latchkey', client_secret: 'idp-secret', redirect_uris: [`${env.server.origin}/auth/callback/idp`], token_endpoint_auth_method: 'client_secret_basic' }],
  })
})

afterAll(async () => {
  await pglite?.end?.()
  await idp?.close()
})

/** The Demo IdP, trusted to link by email. */
const trusted = (): OAuthConfig<any> => ({
  id: 'idp',
  name: 'Demo IdP',
  type: 'oidc',
  issuer: idp.issuer,
  jwks_endpoint: undefined,
  clientId: 'latchkey',
  clientSecret: 'idp-secret',
  allowDangerousEmailAccountLinking: true,
})

/** An app with passkeys, email links, a password sign-in and a trusted OAuth provider, over `adapter`. */
function victimApp(adapter: Adapter, extra: Partial<AuthConfig> = {}) {
  const outbox: SendVerificationRequestParams[] = []
  const removed: Array<{ userId: string; passkeys: PasskeyInfo[] }> = []
  const config = {
    adapter,
    events: { passkeysRemoved: ({ user, passkeys }: { user: { id: string }; passkeys: PasskeyInfo[] }) => void removed.push({ userId: user.id, passkeys }) },
    providers: [
      Passkey(),
      Email({ sendVerificationRequest: (params) => void outbox.push(params) }),
      Credentials({ authorize: async (c) => (c.password === 'right' ? { id: `app-${String(c.email)}`, email: String(c.email) } : null) }),
      trusted(),
    ],
    ...extra,
  }
  const app = passkeyApp(config, adapter)
  target.handler = app.handler
  return { ...app, outbox, removed }
}

let n = 0
const victimAddress = () => `victim${++n}-${Date.now()}@example.com`

/** The attacker, signed out, registers a passkey for the victim's address, then signs in with it once more elsewhere. */
async function squat(app: ReturnType<typeof victimApp>, email: string) {
  await tab.swapAuthenticator()
  const attacker = new Ceremony(tab.page, app.handler, env.server.origin)
  const reg = await attacker.run('register', { email })
  expect(reg.status, JSON.stringify(reg.body)).toBe(200)
  expect((await attacker.session()).user.email).toBe(email)
  const second = new Ceremony(tab.page, app.handler, env.server.origin)
  expect((await second.run('authenticate')).status).toBe(200)
  const user = (await app.adapter.getUserByEmail!(email))!
  expect(user.emailVerified).toBeNull()
  return { sessions: [attacker, second], credentialId: reg.data.id as string, userId: user.id }
}

/** What must hold once the owner has proven the address. */
async function expectAttackerOut(app: ReturnType<typeof victimApp>, squatted: Awaited<ReturnType<typeof squat>>) {
  for (const session of squatted.sessions) expect(await session.session()).toBeNull()
  const retry = new Ceremony(tab.page, app.handler, env.server.origin)
  const res = await retry.run('authenticate')
  expect(res.status).toBe(401)
  expect(res.reason).toBe('unknown-credential')
  expect(await retry.session()).toBeNull()
  expect(await app.adapter.getAuthenticator!(squatted.credentialId)).toBeNull()
  expect(await app.adapter.getAccount!(squatted.credentialId, 'passkey')).toBeNull()
  expect(await app.adapter.listAuthenticatorsByUserId!(squatted.userId)).toEqual([])
  expect(app.removed).toEqual([{ userId: squatted.userId, passkeys: [expect.objectContaining({ id: squatted.credentialId })] }])
}

const adapters: Array<[string, () => Adapter]> = [
  ['memory', () => MemoryAdapter()],
  ['PostgreSQL (PGlite)', () => PostgresAdapter(pglite)],
]

describe.each(adapters)('%s', (_name, makeAdapter) => {
  test('attacker registers a passkey for the address, the owner signs in with an email link: the passkey and its sessions are gone, the owner is told', async () => {
    const app = victimApp(makeAdapter())
    const email = victimAddress()
    const squatted = await squat(app, email)

    const victim = new Jar(app.handler, env.server.origin)
    await victim.postForm('/auth/signin/email', { csrfToken: await victim.csrf(), email, callbackUrl: '/home' })
    const landed = await victim.get(lastLink(app.outbox))
    expect(landed.status).toBe(302)
    expect((await victim.session()).user).toMatchObject({ id: squatted.userId, email })

    await expectAttackerOut(app, squatted)
    expect(landed.headers.get('location')).toBe(`${env.server.origin}/home?notice=passkeys-removed`)
    expect((await app.adapter.getUserByEmail!(email))!.emailVerified).toBeInstanceOf(Date)
    // The owner stays signed in, and a second email sign-in removes nothing more and says nothing.
    expect((await victim.session()).user.email).toBe(email)
    const again = new Jar(app.handler, env.server.origin)
    await again.postForm('/auth/signin/email', { csrfToken: await again.csrf(), email, callbackUrl: '/home' })
    expect((await again.get(lastLink(app.outbox))).headers.get('location')).toBe(`${env.server.origin}/home`)
    expect((await victim.session()).user.email).toBe(email)
    expect(app.removed).toHaveLength(1)
  })

  test('JWT sessions (the jwt callback keeping only what it knows, a rewrite on every read): the attacker\'s token dies at the proof', async () => {
    const app = victimApp(makeAdapter(), {
      session: { strategy: 'jwt', updateAge: 0 },
      callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email }) },
    })
    const email = victimAddress()
    const squatted = await squat(app, email)
    // Rewritten by the reads above and by an update; still the attacker's way in before the proof.
    const [attacker] = squatted.sessions
    expect((await attacker.jar.postJson('/auth/session', { csrfToken: await attacker.jar.csrf(), data: {} })).status).toBe(200)
    expect((await attacker.session()).user.email).toBe(email)

    const victim = new Jar(app.handler, env.server.origin)
    await victim.postForm('/auth/signin/email', { csrfToken: await victim.csrf(), email, callbackUrl: '/home' })
    const landed = await victim.get(lastLink(app.outbox))
    expect((await victim.session()).user).toMatchObject({ id: squatted.userId, email })

    await expectAttackerOut(app, squatted)
    expect(landed.headers.get('location')).toBe(`${env.server.origin}/home?notice=passkeys-removed`)
    expect((await victim.session()).user.email).toBe(email)
  })

  test('the owner signs in through an OAuth provider trusted to link by email: the same clean-up', async () => {
    const app = victimApp(makeAdapter())
    const squatted = await squat(app, alice.email)

    const owner = new HttpBrowser()
    const site = { auth: `${env.server.origin}/auth` }
    const finished = await oauthSignIn(owner, site, 'idp', alice)
    expect((await (await owner.request(`${site.auth}/session`)).json()).user).toMatchObject({ id: squatted.userId, email: alice.email })

    await expectAttackerOut(app, squatted)
    expect(finished.location).toBe(`${env.server.origin}/dashboard?notice=passkeys-removed`)
    expect((await app.adapter.getUser!(squatted.userId))!.emailVerified).toBeInstanceOf(Date)
  })

  test('before the proof, the attacker can neither link an OAuth account nor shed the passkey to do so', async () => {
    const app = victimApp(makeAdapter())
    const email = victimAddress()
    const squatted = await squat(app, email)
    const [attacker] = squatted.sessions

    // The attacker, signed in to the squatted user, signs in at the IdP with an account of their own.
    const site = { auth: `${env.server.origin}/auth` }
    const same = new HttpBrowser()
    for (const [name, value] of attacker.jar.cookies) same.set(env.server.origin, name, encodeURIComponent(value))
    const linking = await oauthSignIn(same, site, 'idp', bob)
    expect(linking.error).toBe('OAuthAccountNotLinked')
    // Not linked: the IdP account signs in to a user of its own.
    const later = new HttpBrowser()
    await oauthSignIn(later, site, 'idp', bob)
    const own = (await (await later.request(`${site.auth}/session`)).json()).user
    expect(own.email).toBe(bob.email)
    expect(own.id).not.toBe(squatted.userId)

    const removal = await attacker.jar.postJson('/auth/passkeys', { action: 'remove', id: squatted.credentialId, csrfToken: await attacker.jar.csrf() })
    expect(removal.status).toBe(409)
    expect(removal.headers.get('latchkey-webauthn-error')).toBe('last-credential')
    expect(await app.adapter.getAuthenticator!(squatted.credentialId)).not.toBeNull()
  })

  test('a password sign-in does not join an account whose address is unproven', async () => {
    const app = victimApp(makeAdapter())
    const email = victimAddress()
    const squatted = await squat(app, email)

    const jar = new Jar(app.handler, env.server.origin)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), email, password: 'right' }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'AccessDenied' })
    expect(await jar.session()).toBeNull()
    expect(await app.adapter.getUser!(`app-${email}`)).toBeNull()
    expect((await app.adapter.getUser!(squatted.userId))!.emailVerified).toBeNull()
  })
})
