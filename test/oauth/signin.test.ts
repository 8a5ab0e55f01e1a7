/**
 * Full OAuth 2 and OpenID Connect sign-ins against a real OpenID provider (the Demo IdP), over
 * HTTP with a cookie jar, through `Latchkey` under node:http.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AuthConfig, OAuthConfig } from '../../src/core/types.js'
import { clearDiscoveryCache } from '../../src/server/features/oauth/discovery.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { startIdp, type Idp } from '../support/idp.js'
import {
  alice,
  atIdp,
  beginSignIn,
  bob,
  Browser,
  callbackOf,
  countingAdapter,
  deliver,
  recordingLogger,
  sessionOf,
  signIn,
  startApp,
  type App,
} from './harness.js'

const secret = 'a-test-secret-of-enough-length-0123456789'
const confidential = { clientId: 'latchkey-confidential', clientSecret: 'confidential-secret' }

let app: App
let proxy: App
let idp: Idp
let store: ReturnType<typeof countingAdapter>
let log: ReturnType<typeof recordingLogger>

const ids = ['idp', 'idp-public', 'idp-oauth', 'idp-formpost', 'idp-userinfo', 'idp-proxied', 'idp-custom', 'idp-handlers']

function providers(): OAuthConfig<any>[] {
  const wellKnown = `${idp.issuer}/.well-known/openid-configuration`
  return [
    // OIDC from discovery, all three checks.
    { id: 'idp', name: 'Demo IdP', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...confidential, checks: ['pkce', 'state', 'nonce'] },
    // OIDC, public client (no secret: client authentication "none"), discovery from the issuer, default checks.
    { id: 'idp-public', name: 'Demo IdP (public)', type: 'oidc', issuer: idp.issuer, jwks_endpoint: undefined, clientId: 'latchkey-public' },
    // Plain OAuth 2: endpoints one by one, user data only from userinfo, default checks (pkce).
    {
      id: 'idp-oauth',
      name: 'Demo IdP (OAuth 2)',
      type: 'oauth',
      issuer: idp.issuer,
      authorization: { url: `${idp.issuer}/auth`, params: { scope: 'openid profile email' } },
      token: `${idp.issuer}/token`,
      userinfo: `${idp.issuer}/me`,
      jwks_endpoint: `${idp.issuer}/jwks`,
      ...confidential,
      client: { token_endpoint_auth_method: 'client_secret_post' },
    },
    { id: 'idp-formpost', name: 'Demo IdP (form_post)', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...confidential, authorization: { params: { response_mode: 'form_post' } } },
    { id: 'idp-userinfo', name: 'Demo IdP (userinfo)', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...confidential, idToken: false },
    { id: 'idp-proxied', name: 'Demo IdP (via proxy)', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...confidential, redirectProxyUrl: '' },
    {
      id: 'idp-custom',
      name: 'Demo IdP (custom callbacks)',
      type: 'oidc',
      wellKnown,
      jwks_endpoint: undefined,
      ...confidential,
      profile: (p: any) => ({ id: `custom-${p.sub}`, email: p.email, name: String(p.name).toUpperCase(), image: null }),
      account: (tokens) => ({ access_token: tokens.access_token, token_type: tokens.token_type, custom: 'kept' }),
    },
    // A provider module's own token and userinfo requests (as built-in modules use them).
    {
      id: 'idp-handlers',
      name: 'Demo IdP (custom requests)',
      type: 'oauth',
      issuer: idp.issuer,
      authorization: { url: `${idp.issuer}/auth`, params: { scope: 'openid profile email' } },
      token: {
        url: `${idp.issuer}/token`,
        async request({ params, checks, redirectUri }) {
          const response = await fetch(`${idp.issuer}/token`, {
            method: 'POST',
            headers: { authorization: `Basic ${btoa(`${confidential.clientId}:${confidential.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'authorization_code', code: params.code!, redirect_uri: redirectUri, code_verifier: checks.code_verifier! }),
          })
          return { tokens: await response.json() }
        },
      },
      userinfo: {
        url: `${idp.issuer}/me`,
        async request({ tokens }) {
          const me = await (await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json()
          return { ...me, second: 'from a second request' }
        },
      },
      jwks_endpoint: `${idp.issuer}/jwks`,
      ...confidential,
      profile: (p: any) => ({ id: p.sub, email: p.email, name: `${p.name}, ${p.second}` }),
    },
  ]
}

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  const list = providers().map((p) => (p.id === 'idp-proxied' ? { ...p, redirectProxyUrl: proxy.auth } : p))
  return { secret, adapter: store.adapter, providers: list, logger: log.logger, ...extra }
}

beforeAll(async () => {
  app = await startApp()
  proxy = await startApp()
  const redirect_uris = [...ids.map((id) => `${app.auth}/callback/${id}`), `${proxy.auth}/callback/idp-proxied`]
  idp = await startIdp({
    clients: [
      { client_id: 'latchkey-confidential', client_secret: 'confidential-secret', redirect_uris, token_endpoint_auth_method: 'client_secret_basic' },
      { client_id: 'latchkey-public', redirect_uris, token_endpoint_auth_method: 'none' },
    ],
  })
})

afterAll(async () => {
  await Promise.all([app?.close(), proxy?.close(), idp?.close()])
})

beforeEach(() => {
  store = countingAdapter()
  log = recordingLogger()
  app.use(config())
  // The proxy is another deployment with the same secret and provider ids, and its own store.
  proxy.use({ secret, adapter: countingAdapter().adapter, providers: providers().map((p) => (p.id === 'idp-proxied' ? { ...p, redirectProxyUrl: proxy.auth } : p)), logger: recordingLogger().logger })
})

describe('OpenID Connect', () => {
  it('signs in with pkce + state + nonce from discovery, creating the user, the account and the session', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp')
    expect(authorization.origin).toBe(idp.issuer)
    const q = authorization.searchParams
    expect(q.get('response_type')).toBe('code')
    expect(q.get('client_id')).toBe('latchkey-confidential')
    expect(q.get('redirect_uri')).toBe(`${app.auth}/callback/idp`)
    expect(q.get('scope')).toBe('openid profile email')
    expect(q.get('code_challenge_method')).toBe('S256')
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(q.get('state')).toBeTruthy()
    expect(q.get('nonce')).toBeTruthy()
    const jar = browser.cookies(app.url)
    expect(Object.keys(jar)).toEqual(expect.arrayContaining(['latchkey.pkce.code_verifier', 'latchkey.state', 'latchkey.nonce']))

    const outcome = await atIdp(browser, authorization, alice)
    const callback = callbackOf(outcome)
    expect(callback.searchParams.get('iss')).toBe(idp.issuer)
    const done = await deliver(browser, outcome)
    expect(done.error).toBeUndefined()
    expect(done.location).toBe(`${app.url}/dashboard`)

    // The check cookies are gone; the session is there.
    const after = browser.cookies(app.url)
    expect(after['latchkey.pkce.code_verifier']).toBeUndefined()
    expect(after['latchkey.state']).toBeUndefined()
    expect(after['latchkey.nonce']).toBeUndefined()
    const session = await sessionOf(browser, app)
    expect(session?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Example', image: `${idp.origin}/avatars/alice.svg` })

    expect(store.counts).toEqual({ createUser: 1, linkAccount: 1, createSession: 1 })
    const account = store.accounts[0]
    expect(account).toMatchObject({ type: 'oidc', provider: 'idp', providerAccountId: 'alice', token_type: 'bearer', scope: expect.stringContaining('openid') })
    expect(account.access_token).toEqual(expect.any(String))
    expect(account.id_token).toMatch(/^eyJ/)
    expect(account.expires_at).toBeGreaterThan(Date.now() / 1000)
    expect(Object.keys(account).sort()).toEqual(
      ['access_token', 'expires_at', 'id_token', 'provider', 'providerAccountId', 'scope', 'token_type', 'type', 'userId'].sort(),
    )
    // Tokens never reach the logs.
    expect(log.lines.join('\n')).not.toContain(account.access_token as string)
    expect(log.lines.join('\n')).not.toContain('eyJ')
  })

  it('signs in a public client (no secret, client authentication "none") discovered from its issuer, with the default checks pkce + nonce', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp-public')
    expect(authorization.searchParams.get('state')).toBeNull()
    expect(authorization.searchParams.get('nonce')).toBeTruthy()
    expect(authorization.searchParams.get('code_challenge')).toBeTruthy()
    const done = await deliver(browser, await atIdp(browser, authorization, bob))
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe('bob@example.com')
  })

  it('takes user data from userinfo when idToken is false, and still requires the ID token', async () => {
    const browser = new Browser()
    const done = await signIn(browser, app, 'idp-userinfo', alice)
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Example' })
    expect(store.accounts[0]).toMatchObject({ provider: 'idp-userinfo', providerAccountId: 'alice' })
    expect(store.accounts[0].id_token).toMatch(/^eyJ/)
  })

  it('handles response_mode=form_post by a 303 to the GET callback, so the Lax check cookies arrive', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp-formpost')
    expect(authorization.searchParams.get('response_mode')).toBe('form_post')
    const outcome = await atIdp(browser, authorization, alice)
    expect(outcome.kind).toBe('form_post')
    if (outcome.kind !== 'form_post') return
    expect(outcome.action).toBe(`${app.auth}/callback/idp-formpost`)
    expect(Object.keys(outcome.fields)).toEqual(expect.arrayContaining(['code', 'iss']))

    // The cross-site POST carries no Lax cookies: deliver it with none, as a browser would.
    const bare = new Browser()
    const post = await bare.request(outcome.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(outcome.fields),
    })
    expect(post.status).toBe(303)
    const bounced = new URL(post.headers.get('location')!)
    expect(bounced.pathname).toBe('/auth/callback/idp-formpost')
    expect(bounced.searchParams.get('code')).toBe(outcome.fields.code)
    expect(post.headers.getSetCookie()).toEqual([])

    // The top-level GET that follows carries them.
    const done = await deliver(browser, bounced)
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe('alice@example.com')
  })

  it('uses custom profile and account callbacks; what account returns is what is stored', async () => {
    const browser = new Browser()
    const done = await signIn(browser, app, 'idp-custom', bob)
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.name).toBe('BOB EXAMPLE')
    const account = store.accounts[0]
    expect(account).toMatchObject({ provider: 'idp-custom', providerAccountId: 'custom-bob', token_type: 'bearer', custom: 'kept' })
    expect(account.id_token).toBeUndefined()
    expect(account.refresh_token).toBeUndefined()
  })

  it('passes authorization params from the configuration and from the sign-in query string, but not reserved ones', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp', '?login_hint=alice%40example.com&prompt=login&redirect_uri=https%3A%2F%2Fevil.example&state=mine')
    expect(authorization.searchParams.get('login_hint')).toBe('alice@example.com')
    expect(authorization.searchParams.get('prompt')).toBe('login')
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${app.auth}/callback/idp`)
    expect(authorization.searchParams.get('state')).not.toBe('mine')
  })

  it('ends on the error page with AccessDenied when the user denies consent, creating nothing', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp')
    const outcome = await atIdp(browser, authorization, 'deny')
    expect(callbackOf(outcome).searchParams.get('error')).toBe('access_denied')
    const done = await deliver(browser, outcome)
    expect(done.error).toBe('AccessDenied')
    expect(done.location).toBe(`${app.auth}/error?error=AccessDenied`)
    expect(store.counts).toEqual({ createUser: 0, linkAccount: 0, createSession: 0 })
    expect(await sessionOf(browser, app)).toBeNull()
    expect(log.lines.join('\n')).toMatch(/access_denied/)
    expect(browser.cookies(app.url)['latchkey.state']).toBeUndefined()
  })

  it('logs an error_description carrying CR, LF, NUL and an ANSI escape on one escaped line', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp')
    const callback = callbackOf(await atIdp(browser, authorization, 'deny'))
    callback.searchParams.set('error_description', 'denied\r\n[latchkey][error] forged\u0000\u001b[31m\u2028')
    const done = await deliver(browser, callback)
    expect(done.error).toBe('AccessDenied')
    const line = log.lines.find((l) => l.includes('access_denied'))
    expect(line).toContain('(denied\\r\\n[latchkey][error] forged\\u0000\\u001b[31m\\u2028)')
    expect(log.lines.join('')).not.toMatch(/[\r\n\u0000\u001b\u2028]/)
  })
})

describe('OAuth 2', () => {
  it('signs in with pkce, endpoints one by one, user data only from userinfo, client_secret_post', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp-oauth')
    expect(authorization.searchParams.get('nonce')).toBeNull()
    expect(authorization.searchParams.get('state')).toBeNull()
    expect(authorization.searchParams.get('code_challenge')).toBeTruthy()
    const done = await deliver(browser, await atIdp(browser, authorization, alice))
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Example', image: `${idp.origin}/avatars/alice.svg` })
    expect(store.accounts[0]).toMatchObject({ type: 'oauth', provider: 'idp-oauth', providerAccountId: 'alice' })
  })
})

describe('accounts', () => {
  it('links a second provider to the signed-in user', async () => {
    const browser = new Browser()
    expect((await signIn(browser, app, 'idp', alice)).error).toBeUndefined()
    // Signed in as alice, add a second way in: bob's account at the OAuth 2 provider.
    // prompt=login: the IdP still has alice's session; ask it to sign someone in again.
    const done = await signIn(browser, app, 'idp-oauth', bob, '?prompt=login')
    expect(done.error).toBeUndefined()
    expect(store.counts).toEqual({ createUser: 1, linkAccount: 2, createSession: 2 })
    const [first, second] = store.accounts
    expect(second.userId).toBe(first.userId)
    expect(await store.base.getUserByAccount({ provider: 'idp-oauth', providerAccountId: 'bob' })).toMatchObject({ email: 'alice@example.com' })
  })

  it('an OAuth sign-in over a session the browser holds deletes that session', async () => {
    const browser = new Browser()
    expect((await signIn(browser, app, 'idp', alice)).error).toBeUndefined()
    const replaced = browser.get(app.url, 'latchkey.session-token')!
    expect((await signIn(browser, app, 'idp-oauth', bob, '?prompt=login')).error).toBeUndefined()
    const current = browser.get(app.url, 'latchkey.session-token')!
    expect(current).not.toBe(replaced)
    expect(await store.base.getSessionAndUser(await storedSessionToken(replaced))).toBeNull()
    expect((await store.base.getSessionAndUser(await storedSessionToken(current)))?.user.email).toBe('alice@example.com')
  })

  it('refuses a new provider whose email belongs to another user (OAuthAccountNotLinked)', async () => {
    expect((await signIn(new Browser(), app, 'idp', alice)).error).toBeUndefined()
    const done = await signIn(new Browser(), app, 'idp-oauth', alice)
    expect(done.error).toBe('OAuthAccountNotLinked')
    expect(store.counts).toEqual({ createUser: 1, linkAccount: 1, createSession: 1 })
  })
})

describe('redirect proxy', () => {
  it('sends the proxy as redirect_uri, and the proxy forwards the callback to the origin that started it', async () => {
    const browser = new Browser()
    const authorization = await beginSignIn(browser, app, 'idp-proxied')
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${proxy.auth}/callback/idp-proxied`)
    expect(authorization.searchParams.get('state')?.split('.')).toHaveLength(5)
    const outcome = await atIdp(browser, authorization, alice)
    const atProxy = callbackOf(outcome)
    expect(atProxy.origin).toBe(proxy.url)

    const forwarded = await browser.request(atProxy.href)
    expect(forwarded.status).toBe(302)
    const target = new URL(forwarded.headers.get('location')!)
    expect(target.href.startsWith(`${app.auth}/callback/idp-proxied?`)).toBe(true)
    expect(target.searchParams.get('code')).toBe(atProxy.searchParams.get('code'))

    const done = await deliver(browser, target)
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe('alice@example.com')
  })
})

describe('discovery', () => {
  it('fails sign-in with OAuthSignInError when discovery is unreachable, and logs why', async () => {
    const down = { id: 'down', name: 'Down', type: 'oidc' as const, wellKnown: 'http://127.0.0.1:9/.well-known/openid-configuration', jwks_endpoint: undefined, clientId: 'x' }
    app.use({ ...config(), providers: [down] })
    const browser = new Browser()
    const csrf = (await (await browser.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
    const response = await browser.request(`${app.auth}/signin/down`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken }),
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${app.auth}/error?error=OAuthSignInError`)
    expect(log.lines.join('\n')).toMatch(/discovery at http:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration failed/)
  })

  it('fails sign-in with OAuthSignInError when discovery names another issuer', async () => {
    const wrong = { id: 'wrong', name: 'Wrong', type: 'oidc' as const, issuer: 'https://other.example', wellKnown: `${idp.issuer}/.well-known/openid-configuration`, jwks_endpoint: undefined, clientId: 'x' }
    app.use({ ...config(), providers: [wrong] })
    const browser = new Browser()
    const csrf = (await (await browser.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
    const response = await browser.request(`${app.auth}/signin/wrong`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken }),
    })
    expect(response.headers.get('location')).toBe(`${app.auth}/error?error=OAuthSignInError`)
    expect(log.lines.join('\n')).toMatch(/expected issuer https:\/\/other\.example\/, got "http:\/\/127\.0\.0\.1:\d+"/)
  })
})

describe('custom requests and discovery cache', () => {
  it('uses token.request and userinfo.request when a provider gives them, still validating the ID token', async () => {
    const browser = new Browser()
    const done = await signIn(browser, app, 'idp-handlers', alice)
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.name).toBe('Alice Example, from a second request')
    expect(store.accounts[0]).toMatchObject({ provider: 'idp-handlers', providerAccountId: 'alice', token_type: 'bearer' })
  })

  it('fetches discovery once per URL, however many sign-ins', async () => {
    clearDiscoveryCache()
    const spy = vi.spyOn(globalThis, 'fetch')
    try {
      for (const user of [alice, bob]) expect((await signIn(new Browser(), app, 'idp', user)).error).toBeUndefined()
      const discoveries = spy.mock.calls.filter(([url]) => String(url).endsWith('/.well-known/openid-configuration'))
      expect(discoveries).toHaveLength(1)
    } finally {
      spy.mockRestore()
    }
  })
})
