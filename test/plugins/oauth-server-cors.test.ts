/**
 * CORS at the authorization server, as raw requests (no browser to hide what the server sends):
 * metadata and keys for any origin, without credentials; the client endpoints (token, revoke,
 * userinfo, register, PAR) only for `corsOrigins` and public clients' https redirect origins, the
 * origin echoed only then, never with credentials, even for the app's own trustedOrigins; the
 * pages and introspection not at all; a preflight asking for more than the rule is refused.
 */
import * as oauth from 'oauth4webapi'
import { describe, expect, it } from 'vitest'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, origin, pkce } from './oauth-server-support.js'

const spa = 'https://spa.example.com'
const base = `${origin}/auth/oauth2`
const server = () => authServer({ corsOrigins: [spa], registration: { open: true }, scopes: { openid: 'Sign you in', 'tools:read': 'Read your tools' } }, { trustedOrigins: ['https://app-pages.example.com'] })

const preflight = (s: ReturnType<typeof server>, url: string, from: string, method = 'POST', headers?: string) =>
  s.handler(new Request(url, { method: 'OPTIONS', headers: { origin: from, 'access-control-request-method': method, ...(headers ? { 'access-control-request-headers': headers } : {}) } }))

const postToken = (s: ReturnType<typeof server>, from: string, body: Record<string, string> = { grant_type: 'refresh_token', client_id: 'cli', refresh_token: 'nope' }) =>
  s.handler(new Request(`${base}/token`, { method: 'POST', headers: { origin: from, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) }))

function noCors(response: Response) {
  expect(response.headers.get('access-control-allow-origin')).toBeNull()
  expect(response.headers.get('access-control-allow-credentials')).toBeNull()
}

describe('CORS: public documents', () => {
  it('metadata, OpenID configuration, protected resource metadata and JWKS: any origin, no credentials, preflight for GET only', async () => {
    const s = server()
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/mcp', '/auth/oauth2/jwks']) {
      // Even the app's own trusted origin gets no credentials here.
      for (const from of ['https://anyone.example', 'https://app-pages.example.com']) {
        const read = await s.handler(new Request(`${origin}${path}`, { headers: { origin: from } }))
        expect(read.status, path).toBe(200)
        expect(read.headers.get('access-control-allow-origin'), path).toBe('*')
        expect(read.headers.get('access-control-allow-credentials'), path).toBeNull()
      }
      const asked = await preflight(s, `${origin}${path}`, 'https://anyone.example', 'GET')
      expect(asked.status, path).toBe(204)
      expect(asked.headers.get('access-control-allow-origin')).toBe('*')
      expect(asked.headers.get('access-control-allow-methods')).toBe('GET')
      expect(asked.headers.get('access-control-allow-credentials')).toBeNull()
      expect((await preflight(s, `${origin}${path}`, 'https://anyone.example', 'POST')).status, path).toBe(403)
    }
  })
})

describe('CORS: the client endpoints', () => {
  it('an allowed origin: preflight names POST and the headers a client sends, the answer echoes the origin and exposes DPoP-Nonce and WWW-Authenticate, never credentials', async () => {
    const s = server()
    for (const name of ['token', 'revoke', 'register', 'par', 'userinfo']) {
      const asked = await preflight(s, `${base}/${name}`, spa, 'POST', 'content-type, dpop, authorization')
      expect(asked.status, name).toBe(204)
      expect(asked.headers.get('access-control-allow-origin')).toBe(spa)
      expect(asked.headers.get('vary')).toBe('Origin')
      expect(asked.headers.get('access-control-allow-methods')).toContain('POST')
      expect(asked.headers.get('access-control-allow-headers')).toBe('authorization, content-type, dpop')
      expect(asked.headers.get('access-control-allow-credentials')).toBeNull()
    }
    expect((await preflight(s, `${base}/userinfo`, spa, 'GET', 'authorization')).status).toBe(204)
    const refused = await postToken(s, spa)
    expect(refused.status).toBe(400)
    expect(refused.headers.get('access-control-allow-origin')).toBe(spa)
    expect(refused.headers.get('access-control-allow-credentials')).toBeNull()
    expect(refused.headers.get('access-control-expose-headers')).toBe('DPoP-Nonce, WWW-Authenticate, Retry-After')
  })

  it('a public client’s https redirect origin is allowed; a confidential client’s is not', async () => {
    const s = server()
    expect((await preflight(s, `${base}/token`, 'https://cli.example.com', 'POST', 'content-type')).headers.get('access-control-allow-origin')).toBe('https://cli.example.com')
    const confidential = await preflight(s, `${base}/token`, 'https://web.example.com', 'POST', 'content-type')
    expect(confidential.status).toBe(403)
    noCors(confidential)
  })

  it('a disallowed origin: a refused preflight and an answer without Access-Control-Allow-Origin; look-alikes are not echoed', async () => {
    const s = server()
    for (const from of ['https://evil.example', 'https://spa.example.com.evil.example', 'https://SPA.example.com', 'http://spa.example.com', 'https://spa.example.com:444', 'null', `${spa}/`, 'https://app-pages.example.com']) {
      const asked = await preflight(s, `${base}/token`, from, 'POST', 'content-type')
      expect(asked.status, from).toBe(403)
      noCors(asked)
      expect(await asked.json()).toMatchObject({ error: 'InvalidRequest' })
      const answered = await postToken(s, from)
      noCors(answered)
      expect(answered.headers.get('vary')).toBe('Origin')
    }
  })

  it('a preflight asking for odd headers or methods is refused, and nothing it asked for is echoed', async () => {
    const s = server()
    for (const [method, headers] of [
      ['POST', 'content-type, x-evil'],
      ['POST', 'cookie'],
      ['POST', 'dpop,\tx-forwarded-host'],
      ['PUT', 'content-type'],
      ['DELETE', ''],
      ['', 'content-type'],
    ] as const) {
      const asked = await preflight(s, `${base}/token`, spa, method, headers || undefined)
      expect(asked.status, `${method} ${headers}`).toBe(403)
      noCors(asked)
      expect(asked.headers.get('access-control-allow-headers')).toBeNull()
    }
    // Case and spacing of the asked headers do not matter.
    expect((await preflight(s, `${base}/token`, spa, 'POST', 'Content-Type ,DPoP')).status).toBe(204)
  })

  it('the pages, introspection and device authorization take no cross-origin calls, even from an allowed origin', async () => {
    const s = server()
    for (const name of ['authorize', 'consent', 'introspect', 'device', 'device_authorization']) {
      const asked = await preflight(s, `${base}/${name}`, spa, 'POST', 'content-type')
      expect(asked.status, name).toBe(403)
      noCors(asked)
    }
    noCors(await s.handler(new Request(`${base}/introspect`, { method: 'POST', headers: { origin: spa, 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' })))
  })

  it('the app’s trusted origins keep their credentialed CORS on the kernel’s routes, and get none on the token endpoint', async () => {
    const s = server()
    const session = await preflight(s, `${origin}/auth/session`, 'https://app-pages.example.com', 'GET')
    expect(session.headers.get('access-control-allow-credentials')).toBe('true')
    noCors(await postToken(s, 'https://app-pages.example.com'))
  })

  it('a whole code exchange from the allowed origin carries the CORS answer', async () => {
    const s = server()
    const as = await s.as()
    const { verifier, challenge } = await pkce()
    const back = await authorizeInBrowser(await browser(s), authorizationUrl(as, { code_challenge: challenge }))
    const params = oauth.validateAuthResponse(as, cli, back, 'st-1')
    const exchanged = await postToken(s, spa, { grant_type: 'authorization_code', client_id: 'cli', code: params.get('code')!, redirect_uri: 'http://127.0.0.1:43117/callback', code_verifier: verifier })
    expect(exchanged.status).toBe(200)
    expect(exchanged.headers.get('access-control-allow-origin')).toBe(spa)
    expect(exchanged.headers.get('set-cookie')).toBeNull()
  })

  it('corsOrigins must be origins alone', () => {
    for (const bad of ['https://spa.example.com/', 'https://spa.example.com/app', 'http://spa.example.com', '*', 'spa.example.com', 42]) {
      expect(() => authServer({ corsOrigins: [bad as string] }), String(bad)).toThrow(/corsOrigins\[0\] must be an origin alone/)
    }
    expect(() => authServer({ corsOrigins: 'https://spa.example.com' as unknown as string[] })).toThrow(/corsOrigins must be a list/)
  })
})
