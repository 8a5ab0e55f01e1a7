/**
 * latchkey as an OAuth 2.1 authorization server (src/plugins/oauth-server), driven by oauth4webapi,
 * an independent client: discovery (RFC 8414), the code flow with PKCE with and without PAR
 * (RFC 9126), `iss` in the response (RFC 9207), refresh rotation, client credentials, revocation
 * (RFC 7009), introspection (RFC 7662), and the resource server's check of a token with its
 * 401/403 naming the protected resource metadata (RFC 9728).
 */
import * as oauth from 'oauth4webapi'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, mcp, origin, otherApi, pkce, secret, web, type AuthServer } from './oauth-server-support.js'
import type { OAuthServerStore as Store } from '../../src/plugins/oauth-server/store.js'

/** The whole code flow for `cli`: answers the token response. */
async function codeFlow(server: AuthServer, { scope = 'tools:read', par = false } = {}) {
  const as = await server.as()
  const { verifier, challenge } = await pkce()
  const redirectUri = 'http://127.0.0.1:43117/callback'
  let url: string
  if (par) {
    const pushed = await oauth.pushedAuthorizationRequest(as, cli, oauth.None(), { response_type: 'code', redirect_uri: redirectUri, scope, code_challenge: challenge, code_challenge_method: 'S256', resource: mcp, state: 'st-1' }, server.options)
    const { request_uri } = await oauth.processPushedAuthorizationResponse(as, cli, pushed)
    const u = new URL(as.authorization_endpoint!)
    u.searchParams.set('client_id', 'cli')
    u.searchParams.set('request_uri', request_uri)
    url = u.href
  } else url = authorizationUrl(as, { code_challenge: challenge, scope })
  const jar = await browser(server)
  const back = await authorizeInBrowser(jar, url)
  const params = oauth.validateAuthResponse(as, cli, back, 'st-1')
  const response = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options)
  return { as, jar, tokens: await oauth.processAuthorizationCodeResponse(as, cli, response), back }
}

describe('metadata', () => {
  it('RFC 8414 at the origin’s root, the issuer from the configured origin', async () => {
    const server = authServer()
    const as = await server.as()
    expect(as).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/auth/oauth2/authorize`,
      token_endpoint: `${origin}/auth/oauth2/token`,
      jwks_uri: `${origin}/auth/oauth2/jwks`,
      revocation_endpoint: `${origin}/auth/oauth2/revoke`,
      introspection_endpoint: `${origin}/auth/oauth2/introspect`,
      pushed_authorization_request_endpoint: `${origin}/auth/oauth2/par`,
      require_pushed_authorization_requests: false,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      scopes_supported: ['tools:read', 'tools:write'],
      authorization_response_iss_parameter_supported: true,
    })
    expect(as.grant_types_supported?.sort()).toEqual(['authorization_code', 'client_credentials', 'refresh_token'])
  })
})

describe('the authorization code flow', () => {
  it('PKCE S256, sign-in, consent, a code with state and iss, an RFC 9068 access token for the one resource, and a refresh token', async () => {
    const server = authServer()
    const { tokens, back } = await codeFlow(server)
    expect(back.origin).toBe('http://127.0.0.1:43117')
    expect(back.searchParams.get('iss')).toBe(origin)
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.refresh_token).toBeTypeOf('string')
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' })
    const claims = decodeJwt(tokens.access_token)
    expect(claims).toMatchObject({ iss: origin, sub: 'user-ada', aud: mcp, client_id: 'cli', scope: 'tools:read' })
    expect(claims.exp! - claims.iat!).toBe(300)
    expect(claims.jti).toBeTypeOf('string')
  })
})

describe('PAR and consent', () => {
  it('a pushed request (RFC 9126) runs the same flow; its request_uri works once', async () => {
    const server = authServer()
    const { tokens } = await codeFlow(server, { par: true })
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: mcp, scope: 'tools:read' })
  })

  it('consent is remembered per user, client and scope set: the same set goes straight on, a larger one asks again', async () => {
    const server = authServer()
    const { as, jar } = await codeFlow(server)
    const again = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    const straight = await jar.get(again.headers.get('location')!)
    expect(straight.status).toBe(302)
    expect(new URL(straight.headers.get('location')!).searchParams.get('code')).toBeTruthy()
    const wider = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, scope: 'tools:read tools:write' }))
    const asked = await jar.get(wider.headers.get('location')!)
    expect(asked.status).toBe(200)
    const page = await asked.text()
    expect(page).toContain('Ada’s CLI')
    expect(page).toContain('Read your tools')
    expect(page).toContain('Change your tools')
    expect(page).toContain('ada@example.com')
    expect(page).toContain('<img src="https://cli.example.com/logo.png"')
    // Another user who never allowed the client is asked.
    const bo = await browser(server, 'bo')
    const first = await bo.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    expect((await bo.get(first.headers.get('location')!)).status).toBe(200)
  })

  it('the consent page is in the request’s language, the scope’s words too where the app gave them', async () => {
    const server = authServer({}, { languages: ['en', 'fr'] })
    const as = await server.as()
    const jar = await browser(server)
    const start = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, scope: 'tools:write' }))
    const page = await (await jar.get(start.headers.get('location')!, { 'accept-language': 'fr' })).text()
    expect(page).toContain('Modifier vos outils')
    expect(page).toContain('Autoriser')
    expect(page).toContain('lang="fr"')
  })

  it('signed out, the browser is sent to the sign-in page and comes back to the same request', async () => {
    const server = authServer()
    const as = await server.as()
    const { Jar } = await import('../support/jar.js')
    const jar = new Jar(server.handler, origin)
    const start = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    const consentUrl = start.headers.get('location')!
    const toSignIn = await jar.get(consentUrl)
    expect(toSignIn.status).toBe(302)
    const signIn = new URL(toSignIn.headers.get('location')!)
    expect(signIn.pathname).toBe('/auth/signin')
    expect(signIn.searchParams.get('callbackUrl')).toBe(consentUrl)
    const signedIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', callbackUrl: consentUrl })
    expect(signedIn.headers.get('location')).toBe(consentUrl)
    expect((await jar.get(consentUrl)).status).toBe(200)
  })

  it('Deny sends access_denied with state and iss, and no code', async () => {
    const server = authServer()
    const as = await server.as()
    const back = await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: (await pkce()).challenge }), 'deny')
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1', iss: origin })
    expect(back.searchParams.has('code')).toBe(false)
    expect(() => oauth.validateAuthResponse(as, cli, back, 'st-1')).toThrow()
  })
  it('mix-up (RFC 9207): the response carries iss; oauth4webapi refuses it with a wrong or missing iss, and another server’s metadata refuses ours', async () => {
    const server = authServer()
    const as = await server.as()
    expect(as.authorization_response_iss_parameter_supported).toBe(true)
    const back = await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    expect(back.searchParams.get('iss')).toBe(origin)
    const wrong = new URL(back)
    wrong.searchParams.set('iss', 'https://evil.example')
    expect(() => oauth.validateAuthResponse(as, cli, wrong, 'st-1')).toThrow(/"iss"/)
    const missing = new URL(back)
    missing.searchParams.delete('iss')
    expect(() => oauth.validateAuthResponse(as, cli, missing, 'st-1')).toThrow(/"iss"/)
    // A client that believes it talks to another server refuses our answer.
    expect(() => oauth.validateAuthResponse({ ...as, issuer: 'https://other-as.example' }, cli, back, 'st-1')).toThrow(/"iss"/)
    expect(oauth.validateAuthResponse(as, cli, back, 'st-1').get('code')).toBe(back.searchParams.get('code'))
  })
})

describe('tokens', () => {
  it('refresh rotates: a new refresh token each time, the access token for the same grant', async () => {
    const server = authServer()
    const { as, tokens } = await codeFlow(server)
    const refreshed = await oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: 'user-ada', aud: mcp, client_id: 'cli' })
    const narrowed = await oauth.processRefreshTokenResponse(
      as,
      cli,
      await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), refreshed.refresh_token!, { ...server.options, additionalParameters: { scope: 'tools:read', resource: mcp } }),
    )
    expect(narrowed.scope).toBe('tools:read')
  })

  it('a grant is purged once nothing of it works: its refresh token expired, or revoked, an access token and a code lifetime before; a live one stays', async () => {
    const server = authServer({ refreshTokenTtl: 3600 })
    const store = server.adapter as unknown as Store
    const grantOf = (tokens: { access_token: string }) => String(decodeJwt(tokens.access_token).grant_id)
    const first = grantOf((await codeFlow(server)).tokens)
    const { as, tokens } = await codeFlow(server)
    const revoked = grantOf(tokens)
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))
    // accessTokenTtl (300 s) and a code's 60 s after the revocation: the next write purges it.
    server.clock.now += 361_000
    const live = grantOf((await codeFlow(server)).tokens)
    await server.handler.settled()
    expect(await store.getOAuthGrant(revoked)).toBeNull()
    expect(await store.getOAuthGrant(first)).not.toBeNull()
    // The first grant's refresh token expired at 3600 s: it stays to 3960 s, and goes at a write after.
    server.clock.now += 3_598_000
    await codeFlow(server)
    await server.handler.settled()
    expect(await store.getOAuthGrant(first)).not.toBeNull()
    server.clock.now += 2000
    await codeFlow(server)
    await server.handler.settled()
    expect(await store.getOAuthGrant(first)).toBeNull()
    expect(await store.getOAuthGrant(live)).not.toBeNull()
  })

  it('client credentials for a confidential client, by client_secret_basic and client_secret_post', async () => {
    const server = authServer()
    const as = await server.as()
    const svc = { client_id: 'svc' }
    const basic = await oauth.processClientCredentialsResponse(as, svc, await oauth.clientCredentialsGrantRequest(as, svc, oauth.ClientSecretBasic(`${secret}-svc`), { resource: otherApi }, server.options))
    expect(decodeJwt(basic.access_token)).toMatchObject({ sub: 'svc', client_id: 'svc', aud: otherApi, scope: 'tools:read' })
    expect(basic.refresh_token).toBeUndefined()
    const rs = { client_id: 'rs' }
    const post = await oauth.processClientCredentialsResponse(as, rs, await oauth.clientCredentialsGrantRequest(as, rs, oauth.ClientSecretPost(`${secret}-rs`), { resource: mcp, scope: 'tools:write' }, server.options))
    expect(decodeJwt(post.access_token)).toMatchObject({ sub: 'rs', aud: mcp, scope: 'tools:write' })
  })

  it('revocation (RFC 7009): a revoked refresh token stops its grant, its access token refused at once on this instance', async () => {
    const server = authServer()
    const { as, tokens } = await codeFlow(server)
    const request = () => new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(await server.plugin.verifyAccessToken(request(), { resource: mcp })).toMatchObject({ sub: 'user-ada', clientId: 'cli', scopes: ['tools:read'] })
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))
    const refused = await server.plugin.verifyAccessToken(request(), { resource: mcp })
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).status).toBe(401)
    await expect(oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))).rejects.toMatchObject({ error: 'invalid_grant' })
    // Unknown tokens are answered 200 too (RFC 7009 §2.2).
    expect((await oauth.revocationRequest(as, cli, oauth.None(), 'no-such-token', server.options)).status).toBe(200)
  })

  it('introspection (RFC 7662): a confidential client about its own tokens; introspectAny about any; public clients not at all', async () => {
    const server = authServer()
    const as = await server.as()
    const { tokens } = await codeFlow(server)
    const ask = async (client: oauth.Client, auth: oauth.ClientAuth, token: string) => oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, server.options))
    const rs = { client_id: 'rs' }
    expect(await ask(rs, oauth.ClientSecretBasic(`${secret}-rs`), tokens.access_token)).toMatchObject({ active: true, sub: 'user-ada', client_id: 'cli', aud: mcp, scope: 'tools:read', iss: origin })
    expect(await ask(rs, oauth.ClientSecretBasic(`${secret}-rs`), tokens.refresh_token!)).toMatchObject({ active: true, token_type: 'refresh_token', client_id: 'cli' })
    expect(await ask(web, oauth.ClientSecretPost(secret), tokens.access_token)).toEqual({ active: false })
    const refused = await oauth.introspectionRequest(as, cli, oauth.None(), tokens.access_token, server.options)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' })
  })
})

describe('the resource server', () => {
  it('401 naming the protected resource metadata without a token; 403 insufficient_scope; 401 once expired', async () => {
    const server = authServer()
    const { tokens } = await codeFlow(server)
    const none = (await server.plugin.verifyAccessToken(new Request(mcp), { resource: mcp })) as Response
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`)
    const bearer = new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    const scoped = (await server.plugin.verifyAccessToken(bearer, { resource: mcp, scopes: ['tools:write'] })) as Response
    expect(scoped.status).toBe(403)
    expect(scoped.headers.get('www-authenticate')).toContain('error="insufficient_scope", error_description="The token lacks a scope this needs", scope="tools:write"')
    server.clock.now += 301_000
    const expired = (await server.plugin.verifyAccessToken(bearer, { resource: mcp })) as Response
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('GET /.well-known/oauth-protected-resource/mcp (RFC 9728) for a resource on this origin; none for one elsewhere', async () => {
    const server = authServer()
    const jar = new (await import('../support/jar.js')).Jar(server.handler, origin)
    const found = await jar.get('/.well-known/oauth-protected-resource/mcp')
    expect(found.status).toBe(200)
    expect(found.headers.get('access-control-allow-origin')).toBe('*')
    expect(await found.json()).toEqual({ resource: mcp, authorization_servers: [origin], scopes_supported: ['tools:read', 'tools:write'], bearer_methods_supported: ['header'] })
    expect((await jar.get('/.well-known/oauth-protected-resource')).status).toBe(404)
  })
})
