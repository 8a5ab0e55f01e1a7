/** Configuration mistakes are refused at start-up as one kind of error: `AuthError` with code `Configuration`, saying the fix. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import type { AuthConfig, OAuthConfig } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import GitHub from '../../src/providers/github.js'
import Google from '../../src/providers/google.js'
import Keycloak from '../../src/providers/keycloak.js'
import Mastodon from '../../src/providers/mastodon.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import OAuth from '../../src/providers/oauth.js'
import OIDC from '../../src/providers/oidc.js'
import Okta from '../../src/providers/okta.js'
import Zitadel from '../../src/providers/zitadel.js'
import { oauthProviders } from '../providers/all.js'
import { Jar } from '../support/jar.js'

const secret = 'config-errors-test-secret-0123456789'

describe('configuration errors', () => {
  const cases: Array<[string, Partial<AuthConfig>, RegExp]> = [
    ['a database strategy without an adapter', { session: { strategy: 'database' } }, /needs an adapter/],
    ['updateAge over maxAge', { session: { maxAge: 60, updateAge: 120 } }, /updateAge <= session.maxAge/],
    ['a relative origin', { origin: 'app.example.com' }, /absolute http\(s\) URL/],
    ['a basePath without its slash', { basePath: 'auth' }, /must start with "\/"/],
    ['two providers with one id', { providers: [{ id: 'x', name: 'X', type: 'email', sendVerificationRequest: () => {} } as never, { id: 'x', name: 'X', type: 'email', sendVerificationRequest: () => {} } as never], adapter: MemoryAdapter() }, /share the id "x"/],
    ['a provider type no sign-in method runs', { providers: [{ id: 'odd', name: 'Odd', type: 'carrier-pigeon' } as never] }, /no sign-in method runs/],
    ['an unknown rate-limit action', { rateLimit: { rules: { teleport: [] } as never } }, /unknown action "teleport"/],
    ['a bad trustProxy', { rateLimit: { trustProxy: -1 as never } }, /trustProxy/],
  ]
  it.each(cases)('%s', (_, config, message) => {
    let thrown: unknown
    try {
      Latchkey({ secret, providers: [], ...config })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(AuthError)
    expect(thrown).toMatchObject({ code: 'Configuration', type: 'Configuration', message: expect.stringMatching(message) })
  })
})

/**
 * Every OAuth and OIDC provider's client fields are checked as `Latchkey(config)` starts, and read
 * from AUTH_<ID>_ID / AUTH_<ID>_SECRET / AUTH_<ID>_ISSUER where the configuration leaves them out.
 */
describe('provider fields at start-up', () => {
  afterEach(() => vi.unstubAllEnvs())

  function startError(providers: AuthConfig['providers']): AuthError | undefined {
    try {
      Latchkey({ secret, providers })
    } catch (error) {
      return error as AuthError
    }
    return undefined
  }

  it.each<[string, () => AuthConfig['providers'], string]>([
    ['GitHub({})', () => [GitHub({})], 'latchkey: provider "github" has no clientId: pass { clientId } in its options, or set AUTH_GITHUB_ID'],
    ['GitHub({ clientId: process.env.GITHUB_ID! }) with the variable unset', () => [GitHub({ clientId: process.env.GITHUB_ID! })], 'latchkey: provider "github" has no clientId: pass { clientId } in its options, or set AUTH_GITHUB_ID'],
    ['GitHub without a secret', () => [GitHub({ clientId: 'id' })], 'latchkey: provider "github" has no clientSecret: pass { clientSecret } in its options, or set AUTH_GITHUB_SECRET'],
    ['Google with client_secret_post and no secret', () => [Google({ clientId: 'id', client: { token_endpoint_auth_method: 'client_secret_post' } })], 'latchkey: provider "google" has no clientSecret: pass { clientSecret } in its options, or set AUTH_GOOGLE_SECRET'],
    ['Microsoft Entra ID, the id in capitals with "_"', () => [MicrosoftEntraID({ clientSecret: 's' })], 'latchkey: provider "microsoft-entra-id" has no clientId: pass { clientId } in its options, or set AUTH_MICROSOFT_ENTRA_ID_ID'],
    ['Keycloak without its issuer', () => [Keycloak({ clientId: 'id', clientSecret: 's' })], 'latchkey: provider "keycloak" has no issuer: pass { issuer } in its options, or set AUTH_KEYCLOAK_ISSUER'],
    ['Okta without its issuer', () => [Okta({ clientId: 'id', clientSecret: 's' })], 'latchkey: provider "okta" has no issuer: pass { issuer } in its options, or set AUTH_OKTA_ISSUER'],
    ['Mastodon (OAuth 2) without its instance', () => [Mastodon({ clientId: 'id', clientSecret: 's' })], 'latchkey: provider "mastodon" has no issuer: pass { issuer } in its options, or set AUTH_MASTODON_ISSUER'],
    ['a generic OAuth provider without endpoints', () => [OAuth({ id: 'corp', name: 'Corp', clientId: 'id' })], 'latchkey: provider "corp" has no issuer and no authorization endpoint: pass { issuer } (or { authorization, token }) in its options'],
    ['a generic OIDC provider without its issuer', () => [OIDC({ id: 'corp', name: 'Corp', clientId: 'id' })], 'latchkey: provider "corp" has no issuer: pass { issuer } in its options, or set AUTH_CORP_ISSUER'],
    ['a hand-written provider without clientId', () => [{ id: 'acme', name: 'Acme', type: 'oauth', authorization: 'https://acme.example/authorize', jwks_endpoint: undefined }], 'latchkey: provider "acme" has no clientId: pass { clientId } in its options, or set AUTH_ACME_ID'],
  ])('%s is refused, naming the field and the variable', (_, providers, message) => {
    const error = startError(providers())
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toMatchObject({ code: 'Configuration', message })
  })

  it.each<[string, () => AuthConfig['providers']]>([
    ['ZITADEL as a public client (PKCE, no secret)', () => [Zitadel({ clientId: 'id', issuer: 'https://acme.zitadel.cloud' })]],
    ['a generic OIDC provider as a public client', () => [OIDC({ id: 'corp', name: 'Corp', issuer: 'https://sso.example', clientId: 'id' })]],
    ['GitHub with token_endpoint_auth_method "none"', () => [GitHub({ clientId: 'id', client: { token_endpoint_auth_method: 'none' } })]],
    ['Okta with private_key_jwt', () => [Okta({ clientId: 'id', issuer: 'https://acme.okta.com', client: { token_endpoint_auth_method: 'private_key_jwt' } })]],
    ['GitHub with client.client_id and client.client_secret', () => [GitHub({ client: { client_id: 'id', client_secret: 's' } })]],
  ])('%s starts', (_, providers) => {
    expect(startError(providers())).toBeUndefined()
  })

  it('reads AUTH_<ID>_ID and AUTH_<ID>_SECRET, also for `providers: [GitHub]` as Auth.js writes it', async () => {
    vi.stubEnv('AUTH_GITHUB_ID', 'from-env-id')
    vi.stubEnv('AUTH_GITHUB_SECRET', 'from-env-secret')
    for (const providers of [[GitHub({})], [GitHub]] as AuthConfig['providers'][]) {
      const auth = Latchkey({ secret, providers })
      const jar = new Jar(auth)
      const res = await jar.postForm('/auth/signin/github', { csrfToken: await jar.csrf() })
      expect(res.status).toBe(302)
      const location = new URL(res.headers.get('location')!)
      expect(location.origin + location.pathname).toBe('https://github.com/login/oauth/authorize')
      expect(location.searchParams.get('client_id')).toBe('from-env-id')
    }
    vi.stubEnv('AUTH_GITHUB_SECRET', '')
    expect(startError([GitHub({})])?.message).toMatch(/has no clientSecret: .*AUTH_GITHUB_SECRET/)
  })

  it('reads AUTH_<ID>_ISSUER for an OpenID Connect provider', () => {
    vi.stubEnv('AUTH_KEYCLOAK_ISSUER', 'https://sso.example/realms/acme')
    expect(startError([Keycloak({ clientId: 'id', clientSecret: 's' })])).toBeUndefined()
  })

  it('every built-in OAuth provider starts with its fields, and refuses to start without clientId', () => {
    const fields = { clientId: 'id', clientSecret: 's', issuer: 'https://idp.example', accountID: '123', apiKey: 'k' }
    for (const [id, make] of Object.entries(oauthProviders) as Array<[string, (o: object) => OAuthConfig<any>]>) {
      expect(startError([make(fields)]), id).toBeUndefined()
      const { clientId: _, ...noId } = fields
      expect(startError([make(noId)])?.message, id).toContain(`has no clientId: pass { clientId } in its options, or set AUTH_${id.toUpperCase().replace(/-/g, '_')}_ID`)
      const { clientSecret: __, ...noSecret } = fields
      const refused = startError([make(noSecret)])?.message
      if (id === 'zitadel') expect(refused, id).toBeUndefined()
      else expect(refused, id).toContain('has no clientSecret')
    }
  })
})

/** The error page's "Try again" leads back to the app's sign-in page, under the redirect check every callbackUrl passes. */
describe('the error page links back to the sign-in page', () => {
  const github = () => GitHub({ clientId: 'id', clientSecret: 's' })

  async function tryAgain(config: Partial<AuthConfig>, before?: (jar: Jar) => Promise<unknown>): Promise<string> {
    const jar = new Jar(Latchkey({ secret, providers: [github()], ...config }))
    await before?.(jar)
    const res = await jar.get('/auth/error?error=Configuration')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('There is a problem with the server configuration.')
    const href = /<a href="([^"]*)">Try again<\/a>/.exec(html)?.[1]
    expect(href).toBeDefined()
    return href!.replace(/&#38;/g, '&')
  }

  it('to the built-in sign-in page when the app has none', async () => {
    expect(await tryAgain({})).toBe('http://localhost:3000/auth/signin')
  })

  it("to pages.signIn on the app's origin", async () => {
    expect(await tryAgain({ pages: { signIn: '/login?from=error' } })).toBe('http://localhost:3000/login?from=error')
  })

  it('to a pages.signIn on another origin only when trustedOrigins allows it', async () => {
    const signIn = 'https://app.example.com/login'
    expect(await tryAgain({ pages: { signIn }, trustedOrigins: ['https://app.example.com'] })).toBe(signIn)
    expect(await tryAgain({ pages: { signIn } })).toBe('http://localhost:3000/auth/signin')
    expect(await tryAgain({ pages: { signIn: 'javascript:alert(1)' } })).toBe('http://localhost:3000/auth/signin')
  })

  it('not to a pages.signIn the redirect callback refuses, nor when it throws', async () => {
    const pages = { signIn: '/login' }
    expect(await tryAgain({ pages, callbacks: { redirect: ({ baseUrl }) => baseUrl } })).toBe('http://localhost:3000/auth/signin')
    const failing = () => {
      throw new Error('redirect callback failed')
    }
    expect(await tryAgain({ pages, callbacks: { redirect: failing } })).toBe('http://localhost:3000/auth/signin')
  })

  it('with the callbackUrl the sign-in started with, when it passes the check', async () => {
    const started = (callbackUrl: string) => async (jar: Jar) => jar.postForm('/auth/signin/github', { csrfToken: await jar.csrf(), callbackUrl })
    expect(await tryAgain({ pages: { signIn: '/login' } }, started('/notes?tab=2'))).toBe(
      `http://localhost:3000/login?callbackUrl=${encodeURIComponent('http://localhost:3000/notes?tab=2')}`,
    )
    expect(await tryAgain({}, started('https://evil.example/'))).toBe('http://localhost:3000/auth/signin?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2F')
    const cookie = (value: string) => async (jar: Jar) => jar.cookies.set('latchkey.callback-url', value)
    expect(await tryAgain({}, cookie('/kept'))).toBe('http://localhost:3000/auth/signin?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fkept')
    expect(await tryAgain({}, cookie('https://evil.example/'))).toBe('http://localhost:3000/auth/signin')
  })
})
