/**
 * An OAuth sign-in that stops at the second step links nothing (issue 41, item 7). With
 * `allowDangerousEmailAccountLinking`, a sign-in at the Demo IdP with the address of a user who
 * has an authenticator app waits for the app's code: the IdP account is linked only once the code
 * is proven; a step abandoned, or past its time, leaves nothing linked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { SendVerificationRequestParams } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import { startIdp, type Idp } from '../support/idp.js'
import { testSecret } from '../support/server.js'
import { secretOf, totp } from '../support/totp.js'
import { alice, Browser, signIn, startApp, type App } from './harness.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { features } from '../../src/server/features/index.js'
import { pendingCookie, readPending, startPending } from '../../src/server/features/mfa/pending.js'

/** The Demo IdP's id for alice: the account's providerAccountId. */
const aliceAtIdp = { provider: 'idp', providerAccountId: 'alice' }

describe('allowDangerousEmailAccountLinking with a second factor due', () => {
  let app: App
  let idp: Idp
  const adapter = MemoryAdapter()
  const outbox: SendVerificationRequestParams[] = []
  // Ahead of the IdP's clock only as the test moves it: each TOTP code is good once, so each step takes a new one.
  const clock = { now: Date.now() }

  beforeAll(async () => {
    app = await startApp()
    idp = await startIdp({
      clients: [{ client_id: 'latchkey', client_secret: 'idp-secret', redirect_uris: [`${app.auth}/callback/idp`], token_endpoint_auth_method: 'client_secret_basic' }],
    })
    app.use({
      secret: testSecret,
      adapter,
      now: () => clock.now,
      mfa: { issuer: 'Latchkey Test' },
      providers: [
        Email({ sendVerificationRequest: (params) => void outbox.push(params) }),
        { id: 'idp', name: 'Demo IdP', type: 'oidc', issuer: idp.issuer, jwks_endpoint: undefined, clientId: 'latchkey', clientSecret: 'idp-secret', allowDangerousEmailAccountLinking: true },
      ],
    })
  })
  afterAll(async () => {
    await app?.close()
    await idp?.close()
  })

  const post = (browser: Browser, path: string, fields: Record<string, string>) => browser.postForm(app.auth, path, fields)
  const session = async (browser: Browser) => (await browser.request(`${app.auth}/session`)).json()

  it('the IdP account is linked only after the right code; an abandoned or expired step links nothing', async () => {
    // Alice signs in by email code and enrols an authenticator app.
    const owner = new Browser()
    await post(owner, '/signin/email', { email: alice.email })
    expect((await post(owner, '/callback/email', { email: alice.email, code: outbox.at(-1)!.code! })).status).toBe(200)
    const enrolled = (await (await post(owner, '/mfa', { action: 'enroll', label: 'Phone' })).json()) as { factor: { id: string }; uri: string }
    const secret = secretOf(enrolled.uri)
    expect((await post(owner, '/mfa', { action: 'confirm', id: enrolled.factor.id, code: totp(secret, clock.now) })).status).toBe(200)
    const userId = (await adapter.getUserByEmail(alice.email))!.id
    clock.now += 30_000

    // An OAuth sign-in with her address stops at the second step: nothing is linked.
    const waiting = new Browser()
    const stopped = await signIn(waiting, app, 'idp', alice)
    expect(stopped.location).toContain('error=SecondFactorRequired')
    expect(waiting.get(app.url, 'latchkey.mfa-pending')).toBeDefined()
    expect(await session(waiting)).toBeNull()
    expect(await adapter.getUserByAccount(aliceAtIdp)).toBeNull()

    // Another such sign-in, abandoned, then tried past its time: still nothing linked.
    const abandoned = new Browser()
    expect((await signIn(abandoned, app, 'idp', alice)).location).toContain('error=SecondFactorRequired')
    expect(await adapter.getUserByAccount(aliceAtIdp)).toBeNull()
    clock.now += 301_000
    expect(await (await post(abandoned, '/mfa/verify', { code: totp(secret, clock.now) })).json()).toMatchObject({ error: 'InvalidCode' })
    expect(await adapter.getUserByAccount(aliceAtIdp)).toBeNull()
    expect((await adapter.listAccountsByUserId(userId)).map((a) => a.provider)).toEqual(['email'])

    // The right code completes a sign-in that waits: the account is linked then, with its tokens.
    const again = new Browser()
    expect((await signIn(again, app, 'idp', alice)).location).toContain('error=SecondFactorRequired')
    expect(await adapter.getUserByAccount(aliceAtIdp)).toBeNull()
    clock.now += 30_000
    const verified = await post(again, '/mfa/verify', { code: totp(secret, clock.now) })
    expect(verified.status).toBe(200)
    expect(await adapter.getUserByAccount(aliceAtIdp)).toMatchObject({ id: userId })
    expect((await adapter.getAccount('alice', 'idp'))!.access_token).toEqual(expect.any(String))
    expect(await session(again)).toMatchObject({ user: { email: alice.email }, amr: ['fed', 'otp', 'mfa'] })
  })
})

describe('the pending cookie that carries an account', () => {
  it('carries the tokens while the cookie stays under 3,800 bytes, else the account alone (a browser drops a cookie over 4 KB)', async () => {
    const config = resolveConfig({ secret: testSecret, adapter: MemoryAdapter(), mfa: true, providers: [] }, features)
    const account = { provider: 'idp', type: 'oidc' as const, providerAccountId: 'alice' }
    const carried = async (access_token: string) => {
      const ctx = createContext(new Request('http://localhost:3000/auth/callback/idp'), config)
      await startPending(ctx, { userId: 'u1', account, link: { ...account, access_token }, isNewUser: false, amr: ['fed'], callbackUrl: '/' }, 300)
      const cookie = ctx.setCookies.find((c) => c.startsWith(`${pendingCookie.of(ctx)}=`))!
      const value = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'))
      expect(value.length).toBeLessThan(3800)
      const read = createContext(new Request('http://localhost:3000/auth/mfa/verify', { headers: { cookie: `${pendingCookie.of(ctx)}=${value}` } }), config)
      return (await readPending(read))!.link
    }
    expect(await carried('short-token')).toEqual({ ...account, access_token: 'short-token' })
    expect(await carried('x'.repeat(4000))).toEqual(account)
  })
})
