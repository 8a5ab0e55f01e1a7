/**
 * GET /auth/plugins: the ids of the plugins the instance installed, built-in features by what the
 * configuration uses (mfa only with `mfa`, password only with a `Password()` provider) and the
 * configuration's own; the same bytes signed in or out, for any query; GET and HEAD only; CORS
 * for trusted origins alone.
 */
import { describe, expect, it } from 'vitest'
import Password from '../../src/providers/password.js'
import { organizations } from '../../src/plugins/organizations/index.js'
import { scim } from '../../src/plugins/scim/index.js'
import { sso } from '../../src/plugins/sso/index.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const url = 'http://localhost:3000/auth/plugins'
const listed = async (handler: (r: Request) => Promise<Response>) => ((await (await handler(new Request(url))).json()) as { plugins: string[] }).plugins

describe('GET /plugins', () => {
  it('lists the built-in features the configuration uses, and no others', async () => {
    const { handler } = testServer()
    const plugins = await listed(handler)
    expect(plugins).toEqual(expect.arrayContaining(['email', 'credentials', 'sessions', 'accounts', 'identity']))
    // Not configured: not installed, not listed; the kernel's own shared part is no plugin.
    for (const absent of ['mfa', 'password', 'webauthn', 'oauth', 'dbsc', 'organizations', 'sso', 'scim', 'sign-in']) expect(plugins).not.toContain(absent)
  })

  it('lists mfa with `mfa` set, password with a Password() provider, and the configured plugins by their ids', async () => {
    const orgs = organizations()
    const { handler } = testServer({
      mfa: { issuer: 'Test' },
      extraProviders: [Password({ sendEmail: async () => {} })],
      plugins: [orgs, sso({ organizations: orgs }), scim()],
    })
    expect(await listed(handler)).toEqual(expect.arrayContaining(['mfa', 'password', 'organizations', 'sso', 'scim']))
  })

  it('answers the same bytes and headers signed in or signed out, sets no cookie, is not cached', async () => {
    const { handler } = testServer({ mfa: { issuer: 'Test' } })
    const jar = new Jar(handler)
    const signedIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' })
    expect(signedIn.status).toBe(200)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    const mine = await jar.get('/auth/plugins?user=user-ada')
    const anyone = await handler(new Request(url))
    expect(mine.status).toBe(200)
    expect(await mine.text()).toBe(await anyone.text())
    expect([...mine.headers]).toEqual([...anyone.headers])
    expect(anyone.headers.get('set-cookie')).toBeNull()
    expect(anyone.headers.get('cache-control')).toBe('no-store')
    expect(anyone.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  it('takes GET and HEAD only: another method is 405 naming GET, changing nothing; a path under it is 404', async () => {
    const { handler } = testServer()
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await handler(new Request(url, { method, body: method === 'DELETE' ? undefined : '{}', headers: { 'content-type': 'application/json' } }))
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET')
      expect(((await res.json()) as { error: string }).error).toBe('UnknownAction')
    }
    const head = await handler(new Request(url, { method: 'HEAD' }))
    expect(head.status).toBe(200)
    const under = await handler(new Request(url + '/mfa'))
    expect(under.status).toBe(404)
    expect(((await under.json()) as { error: string }).error).toBe('UnknownAction')
  })

  it('gives CORS to a trusted origin alone', async () => {
    const { handler } = testServer({ trustedOrigins: ['https://spa.example.com'] })
    const other = await handler(new Request(url, { headers: { origin: 'https://evil.example.com' } }))
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await handler(new Request(url, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' } }))
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const trusted = await handler(new Request(url, { headers: { origin: 'https://spa.example.com' } }))
    expect(trusted.headers.get('access-control-allow-origin')).toBe('https://spa.example.com')
    // None configured: no origin is given CORS.
    const plain = await testServer().handler(new Request(url, { headers: { origin: 'https://spa.example.com' } }))
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
  })
})
