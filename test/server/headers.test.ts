/**
 * Response headers and error messages: every JSON answer says nosniff, the pages' CSP bounds
 * where their forms may lead, and a JSON error message never repeats the caller's bytes.
 */
import { describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

/** Request text no answer may echo: markup, a header break, and a marker to search for. */
const hostile = '<script>alert("pwned")</script>\r\nX-Injected: pwned\u0000'
const echoed = /pwned|<script|X-Injected/

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every JSON answer, success or error', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const csrfToken = await jar.csrf()
    const answers = [
      await jar.get('/auth/providers'),
      await jar.get('/auth/csrf'),
      await jar.get('/auth/session'),
      await jar.get('/auth/nope'),
      await jar.request('/auth/session', { method: 'DELETE' }),
      await jar.request('/auth/signout', { method: 'POST', body: 'x', headers: { 'content-type': 'text/xml' } }),
      await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' }),
    ]
    for (const res of answers) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe("the pages' form-action", () => {
  const idp: OAuthConfig<any> = {
    id: 'idp',
    name: 'IdP',
    type: 'oauth',
    authorization: 'https://login.idp.example/authorize',
    token: 'https://api.idp.example/token',
    jwks_endpoint: undefined,
    clientId: 'c',
    clientSecret: 's',
  }
  const discovered: OAuthConfig<any> = { id: 'oidc', name: 'OIDC', type: 'oidc', issuer: 'https://issuer.example/tenant', jwks_endpoint: undefined, clientId: 'c', clientSecret: 's' }
  // A host the URL parser accepts although ";" would end the CSP directive.
  const odd: OAuthConfig<any> = { ...idp, id: 'odd', authorization: 'https://a;script-src*.example/authorize' }

  function directive(res: Response, name: string): string | undefined {
    return res.headers
      .get('content-security-policy')
      ?.split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(name + ' '))
  }

  it("lets the sign-in page's forms reach 'self', each OAuth provider's authorization origin, the redirect proxy and the trusted origins, nothing else", async () => {
    const { handler } = testServer({
      providers: [Credentials({ credentials: {}, authorize: async () => null }), idp, discovered, odd],
      trustedOrigins: ['https://app.example'],
      redirectProxyUrl: 'https://proxy.example/auth',
    })
    const res = await new Jar(handler).get('/auth/signin')
    expect(res.status).toBe(200)
    const sources = directive(res, 'form-action')!.split(' ').slice(1)
    expect(sources).toContain("'self'")
    expect(sources).toContain('https://login.idp.example')
    expect(sources).toContain('https://issuer.example')
    expect(sources).toContain('https://app.example')
    // A provider that signs the user in at once sends the browser back through the proxy in the same navigation.
    expect(sources).toContain('https://proxy.example')
    expect(sources).not.toContain('https://api.idp.example')
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src/)
    for (const source of sources) expect(source).toMatch(/^'self'$|^https?:\/\/[a-z0-9.:-]+$/)
  })

  it("keeps the sign-out, error and verify-request pages' forms to 'self'", async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    // The sign-out form posts to the app's origin, then goes to the callback URL, by default on it too.
    const signOut = await jar.get('/auth/signout')
    expect(directive(signOut, 'form-action')).toBe("form-action 'self' http://localhost:3000")
    for (const path of ['/auth/error?error=AccessDenied', '/auth/verify-request']) {
      const res = await jar.get(path)
      expect(res.status).toBe(200)
      expect(directive(res, 'form-action')).toBe("form-action 'self'")
    }
  })
})

describe('JSON error messages say what was expected and never echo request text', () => {
  function passkeyServer() {
    return testServer({
      providers: [
        Credentials({ credentials: { username: {} }, authorize: async (c) => (c.username === 'ada' ? { id: 'user-ada', name: 'Ada', email: 'ada@example.com' } : null) }),
        Passkey(),
      ],
    })
  }
  const q = encodeURIComponent(hostile)

  const cases: Array<[string, (jar: Jar, csrf: string) => Promise<Response>, number, RegExp]> = [
    ['an unknown provider id', (j) => j.get(`/auth/webauthn-options/${q}`), 404, /Expected the id of a configured provider/],
    ['an unknown action', (j) => j.get(`/auth/${q}`), 404, /Unknown action: expected \/auth\/ followed by one of .*session/],
    ['a path segment too many', (j) => j.get(`/auth/session/${q}`), 404, /\/auth\/session takes no path segment/],
    ['a method not taken', (j) => j.request('/auth/session', { method: 'PUT' }), 405, /\/auth\/session takes GET, POST/],
    ['a content type not read', (j) => j.request('/auth/signout', { method: 'POST', body: 'x', headers: { 'content-type': `text/${q}` } }), 415, /got another content type/],
    ['a passkey options action', (j) => j.get(`/auth/webauthn-options/passkey?action=${q}`), 400, /Expected action=register or action=authenticate/],
    ['a passkey callback action', (j, csrfToken) => j.postForm('/auth/callback/passkey', { csrfToken, action: hostile, data: '{}' }), 400, /Expected "action" to be register or authenticate, got another value/],
    ['a passkeys management action', (j, csrfToken) => j.postForm('/auth/passkeys', { csrfToken, action: hostile, id: 'x' }), 400, /Expected "action" to be remove or rename, got another value/],
  ]
  for (const [name, send, status, expected] of cases) {
    it(name, async () => {
      const jar = new Jar(passkeyServer().handler)
      const res = await send(jar, await jar.csrf())
      expect(res.status).toBe(status)
      const body = (await res.json()) as { error: string; message: string }
      expect(body.message).toMatch(expected)
      expect(body.message).not.toMatch(echoed)
    })
  }

  it("another user's email address asked for passkey registration while signed in", async () => {
    const jar = new Jar(passkeyServer().handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada' })
    expect((await jar.session())?.user?.email).toBe('ada@example.com')
    const res = await jar.get(`/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(`mallory${hostile}@example.com`)}`)
    expect(res.status).toBe(403)
    const body = (await res.json()) as { message: string }
    expect(body.message).toMatch(/only be added to your own account/)
    expect(body.message).not.toMatch(echoed)
  })
})
