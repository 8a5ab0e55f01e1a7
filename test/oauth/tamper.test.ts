/**
 * The tamper matrix: every way to bend an OAuth callback is rejected with a clear, client-safe
 * error on the error page, a full log line on the server, and no user, account or session.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AuthConfig, OAuthConfig } from '../../src/core/types.js'
import { cookieNames } from '../../src/server/kernel/cookies.js'
import { checkCookies, sealCheck } from '../../src/server/features/oauth/checks.js'
import { makeSigningKey, startIdp, type Idp } from '../support/idp.js'
import {
  alice,
  atIdp,
  beginSignIn,
  Browser,
  callbackOf,
  countingAdapter,
  deliver,
  recordingLogger,
  sessionOf,
  startApp,
  type App,
} from './harness.js'
import { startTamperProxy, type TamperProxy } from './token-tamper.js'

const secret = 'another-test-secret-of-enough-length-42'
const plain = { secure: false }
const names = { ...cookieNames(false), state: checkCookies.state.of(plain), pkceCodeVerifier: checkCookies.pkce.of(plain), nonce: checkCookies.nonce.of(plain) }
const client = { clientId: 'latchkey-confidential', clientSecret: 'confidential-secret' }

let app: App
let idp: Idp
/** A second provider: another issuer, and ID tokens that live one minute. */
let other: Idp
let tamper: TamperProxy
let store: ReturnType<typeof countingAdapter>
let log: ReturnType<typeof recordingLogger>
/** Milliseconds added to the app's clock. */
let shift = 0

const ids = ['idp', 'idp-b', 'tampered', 'short', 'bad-secret']

function providers(): OAuthConfig<any>[] {
  const wellKnown = `${idp.issuer}/.well-known/openid-configuration`
  return [
    { id: 'idp', name: 'Demo IdP', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...client, checks: ['pkce', 'state', 'nonce'] },
    { id: 'idp-b', name: 'Demo IdP again', type: 'oidc', wellKnown, jwks_endpoint: undefined, ...client, checks: ['pkce', 'state', 'nonce'] },
    {
      id: 'tampered',
      name: 'Demo IdP behind a tampering token endpoint',
      type: 'oidc',
      issuer: idp.issuer,
      authorization: `${idp.issuer}/auth`,
      token: tamper.tokenUrl,
      userinfo: `${idp.issuer}/me`,
      jwks_endpoint: `${idp.issuer}/jwks`,
      ...client,
      checks: ['pkce', 'state', 'nonce'],
    },
    { id: 'short', name: 'Short-lived ID tokens', type: 'oidc', issuer: other.issuer, jwks_endpoint: undefined, ...client, checks: ['pkce', 'state', 'nonce'] },
    { id: 'bad-secret', name: 'Wrong client secret', type: 'oidc', wellKnown, jwks_endpoint: undefined, clientId: client.clientId, clientSecret: 'not-the-secret' },
  ]
}

function config(): AuthConfig {
  return { secret, adapter: store.adapter, providers: providers(), logger: log.logger, now: () => Date.now() + shift }
}

beforeAll(async () => {
  app = await startApp()
  const clients = [{ client_id: 'latchkey-confidential', client_secret: 'confidential-secret', redirect_uris: ids.map((id) => `${app.auth}/callback/${id}`) }]
  const key = await makeSigningKey('demo-key')
  idp = await startIdp({ clients, signingKey: key.private })
  other = await startIdp({ clients, idTokenTtl: 60 })
  tamper = await startTamperProxy(`${idp.issuer}/token`, key.private)
})

afterAll(async () => {
  await Promise.all([app?.close(), idp?.close(), other?.close(), tamper?.close()])
})

beforeEach(() => {
  shift = 0
  tamper.rewrite = undefined
  tamper.foreignKey = undefined
  store = countingAdapter()
  log = recordingLogger()
  app.use(config())
})

/** Starts a sign-in and signs in at the IdP; returns the callback URL, not yet delivered. */
async function toCallback(browser: Browser, providerId: string): Promise<URL> {
  return callbackOf(await atIdp(browser, await beginSignIn(browser, app, providerId), alice))
}

/** Delivers and expects the error page with `type`, a log line matching `reason`, and nothing created. */
async function expectRejected(browser: Browser, callback: URL, type: string, reason: RegExp): Promise<void> {
  const done = await deliver(browser, callback)
  expect(done.location).toBe(`${app.auth}/error?error=${type}`)
  expect(log.lines.join('\n')).toMatch(reason)
  expect(store.counts).toEqual({ createUser: 0, linkAccount: 0, createSession: 0 })
  expect(await sessionOf(browser, app)).toBeNull()
  const jar = browser.cookies(app.url)
  expect(jar[names.sessionToken]).toBeUndefined()
  // The check cookies are used once, whatever the outcome.
  expect(jar[names.state]).toBeUndefined()
  expect(jar[names.pkceCodeVerifier]).toBeUndefined()
  expect(jar[names.nonce]).toBeUndefined()
  expect(log.lines.join('\n')).not.toContain('eyJ')
}

async function forge(browser: Browser, cookie: string, provider: string, value: string, nowMs = Date.now()): Promise<void> {
  browser.set(app.url, cookie, await sealCheck([secret], cookie, { provider, value }, nowMs))
}

describe('state', () => {
  it('rejects a callback without state', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    callback.searchParams.delete('state')
    await expectRejected(browser, callback, 'InvalidCheck', /state.*missing/)
  })

  it('rejects an altered state', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    callback.searchParams.set('state', 'attacker-state')
    await expectRejected(browser, callback, 'InvalidCheck', /unexpected "state".*not the one sent/)
  })

  it('rejects a callback when the state cookie is missing', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    browser.delete(app.url, names.state)
    await expectRejected(browser, callback, 'InvalidCheck', /expected a state cookie \(latchkey\.state\), got none/)
  })
})

describe('pkce', () => {
  it('rejects a wrong code verifier (the IdP refuses the code)', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    await forge(browser, names.pkceCodeVerifier, 'idp', 'a-different-verifier-of-enough-length-0123456789abc')
    await expectRejected(browser, callback, 'OAuthCallbackError', /token response: the provider answered HTTP 400 error=invalid_grant/)
  })

  it('rejects a callback when the verifier cookie is missing', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    browser.delete(app.url, names.pkceCodeVerifier)
    await expectRejected(browser, callback, 'InvalidCheck', /expected a PKCE code verifier cookie/)
  })

  it('rejects a replayed code, and the first sign-in stays the only one', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    const saved = { ...browser.cookies(app.url) }
    expect((await deliver(browser, callback)).error).toBeUndefined()
    expect(store.counts).toEqual({ createUser: 1, linkAccount: 1, createSession: 1 })

    const attacker = new Browser()
    for (const [name, value] of Object.entries(saved)) attacker.set(app.url, name, value)
    const done = await deliver(attacker, callback)
    expect(done.location).toBe(`${app.auth}/error?error=OAuthCallbackError`)
    expect(log.lines.join('\n')).toMatch(/invalid_grant/)
    expect(store.counts).toEqual({ createUser: 1, linkAccount: 1, createSession: 1 })
    expect(await sessionOf(attacker, app)).toBeNull()
  })
})

describe('nonce', () => {
  it('rejects an ID token whose nonce is not the one sent', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    await forge(browser, names.nonce, 'idp', 'another-nonce')
    await expectRejected(browser, callback, 'InvalidCheck', /nonce.*differs from the one sent/)
  })
})

describe('ID token', () => {
  it('rejects an ID token from another issuer', async () => {
    tamper.rewrite = (claims) => ({ ...claims, iss: 'https://evil.example' })
    const browser = new Browser()
    await expectRejected(browser, await toCallback(browser, 'tampered'), 'OAuthCallbackError', /unexpected JWT "iss".*expected iss "http:\/\/127\.0\.0\.1:\d+", got "https:\/\/evil\.example"/)
  })

  it('rejects an ID token for another audience', async () => {
    tamper.rewrite = (claims) => ({ ...claims, aud: 'someone-else' })
    const browser = new Browser()
    await expectRejected(browser, await toCallback(browser, 'tampered'), 'OAuthCallbackError', /unexpected JWT "aud".*expected aud "latchkey-confidential", got "someone-else"/)
  })

  it('rejects an ID token signed with a key that is not the provider\'s', async () => {
    tamper.foreignKey = (await makeSigningKey('foreign')).private
    const browser = new Browser()
    await expectRejected(browser, await toCallback(browser, 'tampered'), 'OAuthCallbackError', /ID token signature/)
  })

  it('accepts the untouched ID token through the same path (the control case)', async () => {
    const browser = new Browser()
    const done = await deliver(browser, await toCallback(browser, 'tampered'))
    expect(done.error).toBeUndefined()
    expect(store.counts.createSession).toBe(1)
  })

  it('rejects an expired ID token (one-minute tokens, the app clock five minutes on)', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'short')
    shift = 5 * 60 * 1000
    await expectRejected(browser, callback, 'OAuthCallbackError', /"exp".*against the clock/)
  })
})

describe('check cookies', () => {
  it('refuses provider A\'s callback carrying provider B\'s check cookies', async () => {
    const browserA = new Browser()
    const callbackA = await toCallback(browserA, 'idp')
    const browserB = new Browser()
    await beginSignIn(browserB, app, 'idp-b')
    await expectRejected(browserB, callbackA, 'InvalidCheck', /Provider "idp": the PKCE code verifier cookie was made for provider "idp-b"/)
  })

  it('refuses expired check cookies (the app clock 16 minutes on)', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    shift = 16 * 60 * 1000
    await expectRejected(browser, callback, 'InvalidCheck', /cookie is expired/)
  })
})

describe('mix-up and provider failures', () => {
  it('rejects a callback whose iss parameter names another issuer (RFC 9207)', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    callback.searchParams.set('iss', other.issuer)
    await expectRejected(browser, callback, 'OAuthCallbackError', new RegExp(`unexpected "iss".*got ${JSON.stringify(other.issuer).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`))
  })

  it('rejects a callback without iss from a provider that advertises it', async () => {
    const browser = new Browser()
    const callback = await toCallback(browser, 'idp')
    callback.searchParams.delete('iss')
    await expectRejected(browser, callback, 'OAuthCallbackError', /"iss" \(issuer\) missing/)
  })

  it('ends with OAuthCallbackError when the token endpoint refuses the client', async () => {
    const browser = new Browser()
    await expectRejected(browser, await toCallback(browser, 'bad-secret'), 'OAuthCallbackError', /token response: the provider refused the request with HTTP 401 .*invalid_client/)
  })
})
