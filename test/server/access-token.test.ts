/**
 * auth.getAccessToken against the Demo IdP (a real oidc-provider issuing rotating refresh
 * tokens): refresh when due, single-flight across two latchkey instances sharing one database
 * (counted at the IdP), and a refused refresh (revoked at the IdP) shown on the session.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Adapter, AdapterAccount, AuthConfig } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { AccessTokenError, getAccessToken } from '../../src/server/features/oauth/access-token.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { AccessTokenError as PublicAccessTokenError } from '../../src/server/index.js'
import { alice, Browser, sessionOf, signIn, startApp, type App } from '../oauth/harness.js'
import { startIdp, type Idp } from '../support/idp.js'
import { pgliteAdapter } from '../support/pglite.js'
import { needsService } from '../support/needs-service.js'
import { createIsolatedSchema } from '../adapters/isolated-schema.js'
import { fromPg, fromPostgresJs, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'

const secret = 'access-token-test-secret-at-least-32-characters'
let idp: Idp
let app: App
let adapter: Adapter
let clock = Date.now()
/** Refresh-token grants the IdP answered with tokens. */
let refreshes = 0

function config(store: Adapter = adapter): AuthConfig {
  return {
    secret,
    adapter: store,
    now: () => clock,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      {
        id: 'idp',
        name: 'Demo IdP',
        type: 'oidc',
        issuer: idp.issuer,
        jwks_endpoint: undefined,
        clientId: 'latchkey-refresh',
        clientSecret: 'refresh-secret',
        // offline_access (with consent) is what makes oidc-provider issue a refresh token.
        authorization: { params: { scope: 'openid email profile offline_access', prompt: 'consent' } },
      },
    ],
  }
}

beforeAll(async () => {
  app = await startApp()
  adapter = await pgliteAdapter()
  idp = await startIdp({
    // ID tokens outlive the clock moves below: a refresh answer carries one, checked on latchkey's clock.
    idTokenTtl: 86_400,
    clients: [
      {
        client_id: 'latchkey-refresh',
        client_secret: 'refresh-secret',
        redirect_uris: [`${app.auth}/callback/idp`],
        grant_types: ['authorization_code', 'refresh_token'],
      },
    ],
  })
  idp.oidc.on('grant.success', (ctx: { oidc: { params?: { grant_type?: string } } }) => {
    if (ctx.oidc.params?.grant_type === 'refresh_token') refreshes++
  })
})

afterAll(async () => {
  await Promise.all([app?.close(), idp?.close()])
})

beforeEach(() => {
  clock = Date.now()
  refreshes = 0
  app.use(config())
})

/** Signs alice in with a fresh browser; answers the browser, her user id and her stored account. */
async function signInAlice(): Promise<{ browser: Browser; userId: string; account: () => Promise<AdapterAccount> }> {
  const browser = new Browser()
  const done = await signIn(browser, app, 'idp', alice)
  expect(done.error).toBeUndefined()
  const session = (await sessionOf(browser, app)) as { user: { id: string } }
  const userId = session.user.id
  const account = async () => (await adapter.listAccountsByUserId!(userId)).find((a) => a.provider === 'idp')!
  return { browser, userId, account }
}

async function userinfo(accessToken: string): Promise<Response> {
  return fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } })
}

describe('auth.getAccessToken', () => {
  it('answers the stored token while it is good, refreshes once past expiry, and the IdP accepts the new token', async () => {
    const auth = Latchkey(config())
    const { userId, account } = await signInAlice()
    const first = await account()
    expect(first.refresh_token).toEqual(expect.any(String))
    expect(await auth.getAccessToken({ userId, provider: 'idp' })).toBe(first.access_token)
    expect(refreshes).toBe(0)

    clock = (first.expires_at! - 30) * 1000 // inside the 60 s skew
    const fresh = await auth.getAccessToken({ userId, provider: 'idp' })
    expect(fresh).not.toBe(first.access_token)
    expect(refreshes).toBe(1)
    const stored = await account()
    expect(stored.access_token).toBe(fresh)
    expect(stored.refresh_token).not.toBe(first.refresh_token) // rotated, and the new one kept
    expect(stored.expires_at).toBeGreaterThan(first.expires_at!)
    expect(await auth.getAccessToken({ userId, provider: 'idp' })).toBe(fresh)
    expect(refreshes).toBe(1)

    const me = await userinfo(fresh)
    expect(me.status).toBe(200)
    expect(((await me.json()) as { sub: string }).sub).toBe('alice')
  })

  it('the request form takes the signed-in user; no session is a typed error', async () => {
    const auth = Latchkey(config())
    const { browser, account } = await signInAlice()
    const cookie = browser.cookieHeader(new URL(app.url))
    const request = new Request(`${app.url}/api`, { headers: { cookie } })
    expect(await auth.getAccessToken(request, { provider: 'idp' })).toBe((await account()).access_token)
    await expect(auth.getAccessToken(new Request(`${app.url}/api`), { provider: 'idp' })).rejects.toMatchObject({ name: 'AccessTokenError', code: 'NoLinkedAccount' })
    // The refresh code loads on first use; its errors are still the class latchkey/server exports.
    await expect(auth.getAccessToken(new Request(`${app.url}/api`), { provider: 'idp' })).rejects.toBeInstanceOf(PublicAccessTokenError)
  })

  it('the request form works under the JWT strategy too (the user is the token\'s subject)', async () => {
    const jwt = { ...config(), session: { strategy: 'jwt' as const } }
    app.use(jwt)
    const { browser, account } = await signInAlice()
    const request = new Request(`${app.url}/api`, { headers: { cookie: browser.cookieHeader(new URL(app.url)) } })
    expect(await Latchkey(jwt).getAccessToken(request, { provider: 'idp' })).toBe((await account()).access_token)
  })

  it('ten concurrent callers on two latchkey instances sharing the database cause exactly one refresh at the IdP', async () => {
    const one = Latchkey(config())
    const two = Latchkey(config())
    const { userId, account } = await signInAlice()
    const before = await account()
    clock = (before.expires_at! + 3600) * 1000
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).getAccessToken({ userId, provider: 'idp' })))
    expect(refreshes).toBe(1)
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).not.toBe(before.access_token)
    expect((await account()).access_token).toBe(tokens[0])
    expect((await userinfo(tokens[0]!)).status).toBe(200)
  })

  it('a grant revoked at the IdP gives the typed error, marks the account for the session read, and a new sign-in mends it', async () => {
    const auth = Latchkey(config())
    const { browser, userId, account } = await signInAlice()
    const before = await account()
    const models = idp.oidc as unknown as { RefreshToken: { find(value: string): Promise<{ destroy(): Promise<void> } | undefined> } }
    const token = await models.RefreshToken.find(before.refresh_token!)
    await token!.destroy()
    clock = (before.expires_at! + 60) * 1000

    const error = await auth.getAccessToken({ userId, provider: 'idp' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AccessTokenError)
    expect(error).toMatchObject({ code: 'RefreshAccessTokenError' })
    expect(await account()).toEqual({ ...before, refresh_error: 'invalid_grant' }) // nothing else changed
    expect(await sessionOf(browser, app)).toMatchObject({ error: 'RefreshAccessTokenError' })
    // Known refused: no second try at the IdP.
    await expect(auth.getAccessToken({ userId, provider: 'idp' })).rejects.toMatchObject({ code: 'RefreshAccessTokenError' })
    expect(refreshes).toBe(0)

    const again = await signInAlice()
    expect((await again.account()).refresh_error).toBeUndefined()
    expect((await sessionOf(again.browser, app)) as Record<string, unknown>).not.toHaveProperty('error')
    expect(await auth.getAccessToken({ userId, provider: 'idp' })).toBe((await again.account()).access_token)
  })

  it('a lease left by a caller that died is taken over once it ends, with the refresh token it held', async () => {
    const auth = Latchkey(config())
    const { userId, account } = await signInAlice()
    const before = await account()
    const key = { provider: 'idp', providerAccountId: before.providerAccountId }
    clock = (before.expires_at! + 60) * 1000
    await adapter.updateAccount!({ ...key, refresh_token: `latchkey-refreshing:${clock - 1}:${before.refresh_token}` })
    const fresh = await auth.getAccessToken({ userId, provider: 'idp' })
    expect(refreshes).toBe(1)
    expect((await userinfo(fresh)).status).toBe(200)
    expect((await account()).refresh_token).not.toMatch(/^latchkey-refreshing:/)
  })

  it('a provider that cannot be reached is a network error that changes nothing, and a later call refreshes', async () => {
    const { userId, account } = await signInAlice()
    const before = await account()
    clock = (before.expires_at! + 60) * 1000
    // A closed port for the token endpoint; the rest still comes from discovery.
    const base = config()
    const unreachable = Latchkey({ ...base, providers: [{ ...(base.providers[0] as object), token: 'http://127.0.0.1:9/token' } as never] })
    await expect(unreachable.getAccessToken({ userId, provider: 'idp' })).rejects.toMatchObject({ name: 'AccessTokenError', code: 'ProviderUnreachable' })
    expect(await account()).toEqual(before)
    expect((await Latchkey(base).getAccessToken({ userId, provider: 'idp' })) !== before.access_token).toBe(true)
    expect(refreshes).toBe(1)
  })

  it('a lease that never ends on the configured clock (a frozen clock) is taken over after the lease time in real time', async () => {
    const leaseMs = 500
    const { userId, account } = await signInAlice()
    const before = await account()
    clock = (before.expires_at! + 60) * 1000
    await adapter.updateAccount!({ provider: 'idp', providerAccountId: before.providerAccountId, refresh_token: `latchkey-refreshing:${clock + 3_600_000}:${before.refresh_token}` })
    const started = Date.now()
    const fresh = await getAccessToken(resolveConfig(config()), { skew: 60, leaseMs }, userId, 'idp')
    expect(Date.now() - started).toBeGreaterThanOrEqual(leaseMs)
    expect(refreshes).toBe(1)
    expect((await userinfo(fresh)).status).toBe(200)
  })

  it('an account without a refresh token, and a user without the account, are typed errors', async () => {
    const auth = Latchkey(config())
    const { userId, account } = await signInAlice()
    const current = await account()
    await adapter.updateAccount!({ provider: 'idp', providerAccountId: current.providerAccountId, refresh_token: null })
    clock = (current.expires_at! + 60) * 1000
    await expect(auth.getAccessToken({ userId, provider: 'idp' })).rejects.toMatchObject({ code: 'NoRefreshToken' })
    await expect(auth.getAccessToken({ userId: 'nobody', provider: 'idp' })).rejects.toMatchObject({ code: 'NoLinkedAccount' })
    expect(refreshes).toBe(0)
  })
})

const databaseUrl = needsService('DATABASE_URL', 'two-server refresh on PostgreSQL', 'postgres://postgres@127.0.0.1:5432/test', 'test/server/access-token.test.ts')

if (databaseUrl) {
  describe('auth.getAccessToken on a PostgreSQL server', () => {
    it('ten concurrent callers on two servers, each with its own connection pool and driver, cause one refresh at the IdP', async () => {
      const schema = await createIsolatedSchema(databaseUrl)
      try {
        const poolA = fromPg(schema.pgPool(5))
        await migrate(poolA)
        const serverA = PostgresAdapter(poolA)
        const serverB = PostgresAdapter(fromPostgresJs(schema.postgresJs(5)))
        adapter = serverA
        app.use(config(serverA))
        const { userId, account } = await signInAlice()
        const before = await account()
        clock = (before.expires_at! + 3600) * 1000
        const one = Latchkey(config(serverA))
        const two = Latchkey(config(serverB))
        const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).getAccessToken({ userId, provider: 'idp' })))
        expect(refreshes).toBe(1)
        expect(new Set(tokens).size).toBe(1)
        expect((await serverB.getAccount(before.providerAccountId, 'idp'))?.access_token).toBe(tokens[0])
        expect((await userinfo(tokens[0]!)).status).toBe(200)
      } finally {
        adapter = await pgliteAdapter()
        await schema.drop()
      }
    })
  })
}
