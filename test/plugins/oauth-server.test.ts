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
