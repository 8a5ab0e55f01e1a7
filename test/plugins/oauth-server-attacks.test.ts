/**
 * The authorization server (src/plugins/oauth-server) under attack: redirect URI variants, code
 * replay and theft, PKCE downgrade, audience confusion, refresh token reuse, consent CSRF and
 * clickjacking, a forged Host, PAR misuse, and bad input on every endpoint (an RFC 6749 error,
 * never a 500). docs/security.md names these tests.
 */
import * as oauth from 'oauth4webapi'
import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, consentFields, mcp, origin, otherApi, pkce, secret, web, type AuthServer } from './oauth-server-support.js'
import { oauthServer } from 'latchkey/plugins/oauth-server'
import { Latchkey } from 'latchkey/server'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { testSecret } from '../support/server.js'

const redirectUri = 'http://127.0.0.1:43117/callback'

/** A code for `cli`, from a signed-in browser: answers it with its verifier. */
async function code(server: AuthServer, params: Record<string, string> = {}) {
  const as = await server.as()
  const { verifier, challenge } = await pkce()
  const back = await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: challenge, ...params }))
  return { as, verifier, params: oauth.validateAuthResponse(as, cli, back, 'st-1') }
}

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })

async function post(server: AuthServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const init = form(fields)
  const response = await server.handler(new Request(`${origin}/auth/oauth2/${path}`, { ...init, headers: { ...init.headers, ...headers } }))
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
}

/** No error was logged: every refusal was a warning, none a 500. */
const noErrors = (server: AuthServer) => expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])

describe('redirect URIs match whole', () => {
  it('each variant of a registered URI is refused on a page here, never redirected to', async () => {
    const server = authServer()
    const as = await server.as()
    const jar = await browser(server)
    const variants = [
      'https://cli.example.com/cb/',
      'https://cli.example.com/cb2',
      'https://cli.example.com/other',
      'https://cli.example.com:8443/cb',
      'https://cli.example.com/cb?x=1',
      'https://CLI.example.com/cb',
      'HTTPS://cli.example.com/cb',
      'https://cli.example.com/CB',
      'http://cli.example.com/cb',
      'https://cli.example.com.evil.example/cb',
      'http://127.0.0.1:1234/callback/',
      'http://127.0.0.1:1234/callback?x=1',
      'http://localhost:1234/callback',
      'http://[::1]:1234/callback',
      'http://127.0.0.1:99999/callback',
    ]
    for (const uri of variants) {
      const response = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, redirect_uri: uri }))
      expect(response.status, uri).toBe(400)
      expect(response.headers.get('location'), uri).toBeNull()
      expect(await response.text(), uri).toContain('redirect_uri is not one registered for this client')
    }
    // The registered ones, and a loopback IP at any port (RFC 8252 §7.3).
    for (const uri of ['https://cli.example.com/cb', 'http://127.0.0.1/callback', 'http://127.0.0.1:5/callback', 'http://127.0.0.1:65535/callback']) {
      const response = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, redirect_uri: uri }))
      expect(response.status, uri).toBe(302)
    }
    noErrors(server)
  })
})

describe('codes', () => {
  it('a replayed code is refused and revokes the tokens its first use issued', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options))
    const again = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options)
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'The code was used already; the tokens issued with it are revoked' })
    await expect(oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))).rejects.toMatchObject({ error: 'invalid_grant' })
    const refused = (await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } }), { resource: mcp })) as Response
    expect(refused.status).toBe(401)
    noErrors(server)
  })

  it('a code made up to name a real grant revokes nothing', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const forged = `${params.get('code')!.split('.')[0]}.${'A'.repeat(43)}`
    const guess = await post(server, 'token', { grant_type: 'authorization_code', client_id: 'cli', code: forged, redirect_uri: redirectUri, code_verifier: verifier })
    expect(guess).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'The code is not one this server issued' } })
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options))
    expect(tokens.refresh_token).toBeTypeOf('string')
  })

  it('an expired code (over 60 seconds) is refused', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    server.clock.now += 61_000
    const response = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options)
    expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'The code has expired; codes last 60 seconds' })
  })

  it('a code issued to one client is refused to another, even with the right verifier', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const response = await oauth.authorizationCodeGrantRequest(as, web, oauth.ClientSecretBasic(secret), params, redirectUri, verifier, server.options)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'invalid_grant', error_description: 'The code was issued to another client' })
  })

  it('redirect_uri at the token endpoint must be the authorization request’s', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const response = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, 'http://127.0.0.1:5555/callback', verifier, server.options)
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' })
  })
})

describe('PKCE cannot be downgraded', () => {
  it('plain, or no challenge, is refused at the authorization endpoint, told to the client', async () => {
    const server = authServer()
    const as = await server.as()
    const jar = await browser(server)
    for (const [params, words] of [
      [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'code_challenge_method must be S256; plain is not accepted'],
      [{ code_challenge: 'a'.repeat(43), code_challenge_method: undefined }, 'code_challenge_method must be S256'],
      [{ code_challenge: undefined }, 'PKCE is required: send code_challenge and code_challenge_method=S256'],
      [{ code_challenge: 'short' }, 'code_challenge must be the base64url SHA-256 of the code verifier'],
    ] as const) {
      const response = await jar.get(authorizationUrl(as, params))
      expect(response.status).toBe(302)
      const back = new URL(response.headers.get('location')!)
      expect(back.origin + back.pathname).toBe(redirectUri)
      expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'invalid_request', error_description: words, state: 'st-1', iss: origin })
    }
  })

  it('a missing or wrong verifier is refused at the token endpoint', async () => {
    const server = authServer()
    const { params } = await code(server)
    const missing = await post(server, 'token', { grant_type: 'authorization_code', client_id: 'cli', code: params.get('code')!, redirect_uri: redirectUri })
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'code_verifier is missing: PKCE is required' } })
    expect(missing.headers.get('cache-control')).toBe('no-store')
    const wrong = await post(server, 'token', { grant_type: 'authorization_code', client_id: 'cli', code: params.get('code')!, redirect_uri: redirectUri, code_verifier: 'b'.repeat(43) })
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge' } })
  })
})

describe('audiences', () => {
  it('a missing or unknown resource is refused (invalid_target)', async () => {
    const server = authServer()
    const as = await server.as()
    const jar = await browser(server)
    for (const resource of [undefined, 'https://evil.example', `${mcp}/`, 'http://localhost:3000/MCP']) {
      const back = new URL((await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, resource }))).headers.get('location')!)
      expect(back.searchParams.get('error'), resource).toBe('invalid_target')
    }
    const svc = await post(server, 'token', { grant_type: 'client_credentials', client_id: 'svc', client_secret: `${secret}-svc` })
    expect(svc).toMatchObject({ status: 400, body: { error: 'invalid_target' } })
  })

  it('a token for one resource is refused at another, and at the token endpoint another resource is refused', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const other = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, { ...server.options, additionalParameters: { resource: otherApi } })
    expect(await other.json()).toMatchObject({ error: 'invalid_target' })
    // That attempt spent the code: a fresh one.
    const next = await code(server)
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), next.params, redirectUri, next.verifier, server.options))
    const elsewhere = (await server.plugin.verifyAccessToken(new Request(otherApi, { headers: { authorization: `Bearer ${tokens.access_token}` } }), { resource: otherApi })) as Response
    expect(elsewhere.status).toBe(401)
    expect(elsewhere.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"',
    )
  })

  it('a token signed by another key, or of another type, is refused', async () => {
    const server = authServer()
    const otherServer = authServer()
    const { as, verifier, params } = await code(otherServer)
    const foreign = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, otherServer.options))
    const refused = (await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${foreign.access_token}` } }), { resource: mcp })) as Response
    expect(refused.status).toBe(401)
    const [, payload, sig] = foreign.access_token.split('.')
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`
    for (const token of [none, `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url')}.${payload}.${sig}`, 'garbage']) {
      expect(((await otherServer.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${token}` } }), { resource: mcp })) as Response).status).toBe(401)
    }
    const basic = (await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: 'Bearer a b' } }), { resource: mcp })) as Response
    expect(basic.status).toBe(400)
  })
})

describe('refresh tokens', () => {
  it('reuse of a rotated refresh token revokes the whole family', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const first = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options))
    const second = await oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), first.refresh_token!, server.options))
    const reuse = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), first.refresh_token!, server.options)
    expect(await reuse.json()).toEqual({ error: 'invalid_grant', error_description: 'The refresh token was used already; every token of its grant is revoked' })
    // The newest token of the family, and its access token, no longer work.
    expect(await (await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), second.refresh_token!, server.options)).json()).toMatchObject({ error: 'invalid_grant' })
    expect(((await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${second.access_token}` } }), { resource: mcp })) as Response).status).toBe(401)
  })

  it('a refresh token presented by another client is refused and its family revoked; a wider scope is refused', async () => {
    const server = authServer()
    const { as, verifier, params } = await code(server)
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options))
    const wider = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, { ...server.options, additionalParameters: { scope: 'tools:read tools:write' } })
    expect(await wider.json()).toMatchObject({ error: 'invalid_scope' })
    const next = await code(server)
    const other = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), next.params, redirectUri, next.verifier, server.options))
    const stolen = await oauth.refreshTokenGrantRequest(as, web, oauth.ClientSecretBasic(secret), other.refresh_token!, server.options)
    expect(await stolen.json()).toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token was issued to another client' })
    expect(((await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${other.access_token}` } }), { resource: mcp })) as Response).status).toBe(401)
  })
})

describe('the consent page', () => {
  async function consentPage(server: AuthServer) {
    const as = await server.as()
    const jar = await browser(server)
    const start = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    const page = await jar.get(start.headers.get('location')!)
    return { jar, page, fields: consentFields(await page.clone().text()) }
  }

  it('cannot be framed, runs no script, and may post only here and redirect only to the client', async () => {
    const { page } = await consentPage(authServer())
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("form-action 'self' http://127.0.0.1:43117")
    expect(csp).not.toContain('script-src')
    expect(page.headers.get('cache-control')).toBe('no-store')
  })

  it('a POST without the CSRF token, or with a wrong one, is refused and allows nothing; the request still waits', async () => {
    const server = authServer()
    const { jar, fields } = await consentPage(server)
    for (const csrfToken of [undefined, 'wrong', '']) {
      const body: Record<string, string> = { request: fields.request, decision: 'allow' }
      if (csrfToken !== undefined) body.csrfToken = csrfToken
      const refused = await jar.postForm('/auth/oauth2/consent', body)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('location')).toBeNull()
      expect(await refused.text()).toContain('This answer did not come from this page')
    }
    // Another browser (the attacker's page posting with its own cookie) gets nothing either.
    const attacker = new Jar(server.handler, origin)
    const forged = await attacker.postForm('/auth/oauth2/consent', { request: fields.request, decision: 'allow', csrfToken: await attacker.csrf() })
    expect(forged.status).toBe(401)
    const allowed = await jar.postForm('/auth/oauth2/consent', { ...fields, decision: 'allow' })
    expect(allowed.status).toBe(302)
    // Answered once: a second answer finds nothing.
    expect((await jar.postForm('/auth/oauth2/consent', { ...fields, decision: 'allow' })).status).toBe(400)
  })

  it('a bad decision or an unknown request is a page, not a redirect', async () => {
    const server = authServer()
    const { jar, fields } = await consentPage(server)
    expect((await jar.postForm('/auth/oauth2/consent', { ...fields, decision: 'maybe' })).status).toBe(400)
    expect((await jar.postForm('/auth/oauth2/consent', { ...fields, request: 'nope' })).status).toBe(400)
    expect((await jar.get('/auth/oauth2/consent?request=nope')).status).toBe(400)
    expect((await jar.get('/auth/oauth2/consent')).status).toBe(400)
    noErrors(server)
  })
})

describe('the issuer is the configured origin', () => {
  it('a forged Host is refused, X-Forwarded-Host is never read, and trustHost does not move the issuer', async () => {
    const server = authServer()
    const forged = await server.handler(new Request('http://evil.example/.well-known/oauth-authorization-server'))
    expect(forged.status).toBe(400)
    const forwarded = await server.handler(new Request('http://127.0.0.1:3000/.well-known/oauth-authorization-server', { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } }))
    expect((await forwarded.json()).issuer).toBe(origin)
    const trusting = authServer({}, { trustHost: true })
    const moved = await trusting.handler(new Request('http://evil.example/.well-known/oauth-authorization-server', { headers: { 'x-forwarded-host': 'evil.example' } }))
    const metadata = await moved.json()
    expect(metadata.issuer).toBe(origin)
    expect(metadata.token_endpoint).toBe(`${origin}/auth/oauth2/token`)
  })

  it('an instance without a configured origin, or without an adapter, is refused with the fix', () => {
    const plugin = oauthServer({ clients: [], scopes: { a: 'A' }, resources: [mcp] })
    const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
    expect(() => Latchkey({ secret: testSecret, adapter: MemoryAdapter({ plugins: [plugin] }), plugins: [plugin], providers: [], trustHost: true, logger: quiet })).toThrow(/needs the app’s public origin as its issuer: set origin/)
    expect(() => Latchkey({ secret: testSecret, origin, plugins: [plugin], providers: [], logger: quiet })).toThrow(/oauthServer needs an adapter/)
  })

  it('bad options are refused with the fix', () => {
    const base = { scopes: { 'tools:read': 'Read' }, resources: [mcp] }
    const refusal = (options: object) => {
      try {
        oauthServer({ ...base, clients: [], ...options } as never)
      } catch (error) {
        return (error as Error).message
      }
      return 'accepted'
    }
    expect(refusal({ clients: [{ clientId: 'a', name: 'A', redirectUris: ['http://app.example/cb'] }] })).toBe(
      'latchkey: oauthServer clients[0] ("a").redirectUris[0] uses http on a host that is not loopback; use https, or http://127.0.0.1 for a native app, got "http://app.example/cb"',
    )
    expect(refusal({ clients: [{ clientId: 'a', name: 'A', redirectUris: [], grantTypes: ['client_credentials'] }] })).toBe(
      'latchkey: oauthServer clients[0] ("a") uses client_credentials, which needs a clientSecret: a public client cannot keep one',
    )
    expect(refusal({ clients: [{ clientId: 'a', name: 'A', redirectUris: ['https://a.example/cb'], scopes: ['admin'] }] })).toBe(
      'latchkey: oauthServer clients[0] ("a").scopes lists "admin", which is not in scopes; add it there with its words',
    )
    expect(refusal({ clients: [{ clientId: 'a', name: 'A', redirectUris: ['https://a.example/cb'], clientSecret: 'short' }] })).toMatch(/clientSecret must be a string of at least 32 characters/)
    expect(refusal({ resources: ['http://api.example.com'] })).toBe('latchkey: oauthServer resources[0] must use https (http only on 127.0.0.1, [::1] or localhost), got "http://api.example.com"')
    expect(refusal({ resources: [] })).toMatch(/needs resources/)
    expect(refusal({ scopes: { 'a b': 'x' } })).toMatch(/no scope token/)
    expect(refusal({ accessTokenTtl: 0 })).toMatch(/accessTokenTtl must be a whole number of seconds from 1 to 3600/)
  })
})

describe('PAR', () => {
  it('a request_uri works once, for 60 seconds, for the client that pushed it; requirePar refuses the rest', async () => {
    const server = authServer({ requirePar: true })
    const as = await server.as()
    expect(as.require_pushed_authorization_requests).toBe(true)
    const jar = await browser(server)
    const push = async () => {
      const { challenge } = await pkce()
      const pushed = await oauth.pushedAuthorizationRequest(as, cli, oauth.None(), { response_type: 'code', redirect_uri: redirectUri, scope: 'tools:read', code_challenge: challenge, code_challenge_method: 'S256', resource: mcp }, server.options)
      return (await oauth.processPushedAuthorizationResponse(as, cli, pushed)).request_uri
    }
    const at = (requestUri: string, clientId = 'cli') => `${as.authorization_endpoint}?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`
    const once = await push()
    expect((await jar.get(at(once))).status).toBe(302)
    const twice = await jar.get(at(once))
    expect(twice.status).toBe(400)
    expect(await twice.text()).toContain('request_uri is unknown, expired, already used, or pushed by another client')
    const late = await push()
    server.clock.now += 61_000
    expect((await jar.get(at(late))).status).toBe(400)
    expect((await jar.get(at(await push(), 'web'))).status).toBe(400)
    const direct = new URL((await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))).headers.get('location')!)
    expect(direct.searchParams.get('error')).toBe('invalid_request')
    expect(direct.searchParams.get('error_description')).toMatch(/PAR only/)
    // A pushed request is checked as the authorization endpoint would: errors in the answer.
    const bad = await post(server, 'par', { client_id: 'cli', response_type: 'code', redirect_uri: redirectUri, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain', resource: mcp })
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
    const pushedUri = await post(server, 'par', { client_id: 'cli', request_uri: 'urn:x', redirect_uri: redirectUri })
    expect(pushedUri.body.error).toBe('invalid_request')
    noErrors(server)
  })
})

describe('bad input is a clear 400 (or 401) in OAuth’s words, never a 500', () => {
  it('the token endpoint', async () => {
    const server = authServer()
    const cases: Array<[Record<string, string>, Record<string, string>, number, string]> = [
      [{ client_id: 'cli' }, {}, 400, 'invalid_request'],
      [{ client_id: 'cli', grant_type: 'password' }, {}, 400, 'unsupported_grant_type'],
      [{ client_id: 'cli', grant_type: 'authorization_code' }, {}, 400, 'invalid_request'],
      [{ client_id: 'cli', grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri, code_verifier: 'a'.repeat(43) }, {}, 400, 'invalid_grant'],
      [{ client_id: 'cli', grant_type: 'refresh_token' }, {}, 400, 'invalid_request'],
      [{ client_id: 'cli', grant_type: 'refresh_token', refresh_token: 'nope' }, {}, 400, 'invalid_grant'],
      [{ client_id: 'cli', grant_type: 'client_credentials', resource: mcp }, {}, 400, 'unauthorized_client'],
      [{ grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      [{ client_id: 'nobody', grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      [{ client_id: 'svc', client_secret: 'wrong', grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      [{ client_id: 'svc', grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      [{ client_id: 'cli', client_secret: 'x', grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, { authorization: 'Basic !!!' }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, { authorization: `Basic ${btoa('svc:wrong')}` }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials', client_secret: 'x' }, { authorization: `Basic ${btoa(`svc:${secret}-svc`)}` }, 400, 'invalid_request'],
      [{ grant_type: 'client_credentials', client_id: 'rs' }, { authorization: `Basic ${btoa(`svc:${secret}-svc`)}` }, 400, 'invalid_request'],
      [{ grant_type: 'client_credentials', scope: 'tools:write', resource: mcp }, { authorization: `Basic ${btoa(`svc:${secret}-svc`)}` }, 400, 'invalid_scope'],
      [{ grant_type: 'client_credentials', scope: 'x'.repeat(5000), resource: mcp }, { authorization: `Basic ${btoa(`svc:${secret}-svc`)}` }, 400, 'invalid_request'],
    ]
    for (const [fields, headers, status, error] of cases) {
      const answer = await post(server, 'token', fields, headers)
      expect([answer.status, answer.body.error], JSON.stringify(fields)).toEqual([status, error])
      expect(answer.body.error_description).toBeTypeOf('string')
      expect(answer.headers.get('cache-control')).toBe('no-store')
    }
    expect((await post(server, 'token', { grant_type: 'client_credentials' }, { authorization: 'Basic !!!' })).headers.get('www-authenticate')).toMatch(/^Basic /)
    const json = await server.handler(new Request(`${origin}/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: ['a', 'b'], client_id: 'cli' }) }))
    expect([json.status, (await json.json()).error]).toEqual([400, 'invalid_request'])
    const typed = await server.handler(new Request(`${origin}/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))
    expect([typed.status, (await typed.json()).error]).toEqual([415, 'invalid_request'])
    const huge = await server.handler(new Request(`${origin}/auth/oauth2/token`, { ...form({ grant_type: 'x'.repeat(100_000) }) }))
    expect([huge.status, (await huge.json()).error]).toEqual([413, 'invalid_request'])
    expect((await server.handler(new Request(`${origin}/auth/oauth2/token`))).status).toBe(405)
    expect((await server.handler(new Request(`${origin}/auth/oauth2/nope`))).status).toBe(404)
    noErrors(server)
  })

  it('the authorization endpoint: before the client and redirect URI are known good a page, after them the client is told', async () => {
    const server = authServer()
    const as = await server.as()
    const jar = await browser(server)
    const page = async (params: Record<string, string | undefined>) => {
      const response = await jar.get(authorizationUrl(as, { code_challenge: 'a'.repeat(43), ...params }))
      return [response.status, response.headers.get('location')]
    }
    expect(await page({ client_id: undefined })).toEqual([400, null])
    expect(await page({ client_id: 'nobody' })).toEqual([400, null])
    expect(await page({ client_id: 'svc' })).toEqual([400, null])
    expect(await page({ redirect_uri: undefined })).toEqual([400, null])
    const twice = await jar.get(`${authorizationUrl(as, { code_challenge: 'a'.repeat(43) })}&redirect_uri=${encodeURIComponent(redirectUri)}`)
    expect(twice.status).toBe(400)
    const told = async (params: Record<string, string | undefined>) => {
      const response = await jar.get(authorizationUrl(as, { code_challenge: 'a'.repeat(43), ...params }))
      expect(response.status).toBe(302)
      return new URL(response.headers.get('location')!).searchParams.get('error')
    }
    expect(await told({ response_type: 'token' })).toBe('unsupported_response_type')
    expect(await told({ response_type: undefined })).toBe('unsupported_response_type')
    expect(await told({ scope: 'admin' })).toBe('invalid_scope')
    expect(await told({ scope: ' ' })).toBe('invalid_scope')
    expect(await told({ request: 'eyJ' })).toBe('invalid_request')
    const scopeTwice = await jar.get(`${authorizationUrl(as, { code_challenge: 'a'.repeat(43) })}&scope=tools:write`)
    expect(new URL(scopeTwice.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
    noErrors(server)
  })

  it('revocation and introspection', async () => {
    const server = authServer()
    expect(await post(server, 'revoke', { client_id: 'cli' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
    expect(await post(server, 'revoke', { client_id: 'nobody', token: 'x' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } })
    expect(await post(server, 'introspect', { client_id: 'rs', client_secret: `${secret}-rs` })).toMatchObject({ status: 400, body: { error: 'invalid_request' } })
    expect(await post(server, 'introspect', { client_id: 'rs', client_secret: `${secret}-rs`, token: 'a.b.c' })).toMatchObject({ status: 200, body: { active: false } })
    expect(await post(server, 'introspect', { client_id: 'rs', client_secret: `${secret}-rs`, token: 'x' })).toMatchObject({ status: 200, body: { active: false } })
    noErrors(server)
  })
})
