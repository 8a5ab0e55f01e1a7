/**
 * DPoP (RFC 9449) at the authorization server, driven by oauth4webapi's DPoP handle and by proofs
 * made by hand: a proof binds the access token (cnf.jkt, token_type DPoP) and a public client's
 * refresh token; every proof check refuses (typ, alg, private jwk, htm, htu, iat, replay, nonce);
 * the resource check wants the bound token under DPoP with a proof by its key for that request.
 * The servers run on the wall clock, which oauth4webapi's proofs read.
 */
import * as oauth from 'oauth4webapi'
import { decodeJwt, exportJWK, base64url, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, mcp, origin, pkce, secret, type AuthServer } from './oauth-server-support.js'
import { proof, serviceToken, tokenUrl } from './oauth-server-device-support.js'

const redirectUri = 'http://127.0.0.1:43117/callback'
export const wallClock = (overrides = {}) => authServer(overrides, {}, { clock: { now: Date.now() } })

/** The code flow for `cli` with a DPoP key at the token endpoint. */
async function boundCodeFlow(server: AuthServer, dpop: oauth.DPoPHandle) {
  const as = await server.as()
  const { verifier, challenge } = await pkce()
  const params = oauth.validateAuthResponse(as, cli, await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: challenge })), 'st-1')
  const response = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, { ...server.options, DPoP: dpop })
  return { as, tokens: await oauth.processAuthorizationCodeResponse(as, cli, response) }
}

/** The resource server: the app's check of a request to `mcp`. */
const resource = (server: AuthServer) => async (url: string | URL, init?: RequestInit) => {
  const checked = await server.plugin.verifyAccessToken(new Request(url, init), { resource: mcp })
  return checked instanceof Response ? checked : Response.json({ sub: checked.sub })
}

const ath = async (token: string) => base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))))

describe('DPoP at the token endpoint', () => {
  it('metadata names the proof algorithms', async () => {
    const as = await wallClock().as()
    expect(as.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'EdDSA', 'PS256']))
    expect(as.dpop_signing_alg_values_supported).not.toContain('HS256')
  })

  it('a proof binds the code flow’s access token (cnf.jkt, token_type DPoP); introspection says so', async () => {
    const server = wallClock()
    const keys = await oauth.generateKeyPair('ES256')
    const dpop = oauth.DPoP(cli, keys)
    const { tokens } = await boundCodeFlow(server, dpop)
    expect(tokens.token_type).toBe('dpop')
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt: await dpop.calculateThumbprint() })
    const introspected = await server.fetcher(`${origin}/auth/oauth2/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`rs:${secret}-rs`)}` },
      body: new URLSearchParams({ token: tokens.access_token }),
    })
    expect(await introspected.json()).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: await dpop.calculateThumbprint() } })
  })

  it('a public client’s refresh token is bound: refreshed with its key it works; without a proof or with another key it is refused and not spent', async () => {
    const server = wallClock()
    const keys = await oauth.generateKeyPair('ES256')
    const dpop = oauth.DPoP(cli, keys)
    const { as, tokens } = await boundCodeFlow(server, dpop)
    const bare = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options)
    expect(bare.status).toBe(400)
    expect(await bare.json()).toMatchObject({ error: 'invalid_dpop_proof' })
    const thief = oauth.DPoP(cli, await oauth.generateKeyPair('ES256'))
    const stolen = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, { ...server.options, DPoP: thief })
    expect(await stolen.json()).toMatchObject({ error: 'invalid_dpop_proof' })
    // Neither burnt the token: its owner refreshes with it, once.
    const refreshed = await oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, { ...server.options, DPoP: dpop }))
    expect(refreshed.token_type).toBe('dpop')
    expect(decodeJwt(refreshed.access_token).cnf).toEqual({ jkt: await dpop.calculateThumbprint() })
    const next = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), refreshed.refresh_token!, server.options)
    expect(await next.json()).toMatchObject({ error: 'invalid_dpop_proof' })
  })

  it('without a proof the tokens are Bearer, as before', async () => {
    const response = await serviceToken(wallClock())
    expect(await response.json()).toMatchObject({ token_type: 'Bearer' })
  })

  it('every proof check refuses with invalid_dpop_proof, 400, and issues nothing', async () => {
    const server = wallClock()
    const keys = await oauth.generateKeyPair('ES256', { extractable: true })
    const rsa = await oauth.generateKeyPair('RS256')
    const privateJwk = (await crypto.subtle.exportKey('jwk', keys.privateKey)) as JWK
    const now = Date.now()
    const cases: Array<[string, string]> = [
      ['not a JWT', 'abc'],
      ['typ JWT', await proof(keys, {}, { typ: 'JWT' })],
      ['alg none-like: HS256', await proof(keys, {}, { alg: 'HS256' }).catch(() => 'eyJhbGciOiJIUzI1NiIsInR5cCI6ImRwb3Arand0In0.e30.x')],
      ['the private key in the header', await proof(keys, {}, { jwk: privateJwk })],
      ['signed by another key than its jwk', await proof(keys, {}, { jwk: await exportJWK(rsa.publicKey) })],
      ['htm GET', await proof(keys, { htm: 'GET' })],
      ['htu another endpoint', await proof(keys, { htu: `${origin}/auth/oauth2/revoke` })],
      ['htu another host', await proof(keys, { htu: 'https://evil.example/auth/oauth2/token' })],
      ['iat two minutes old', await proof(keys, { iat: Math.floor(now / 1000) - 120 })],
      ['iat a minute ahead', await proof(keys, { iat: Math.floor(now / 1000) + 60 })],
      ['no jti', await proof(keys, { jti: undefined })],
      ['two proofs', `${await proof(keys)}, ${await proof(keys)}`],
    ]
    for (const [what, header] of cases) {
      const response = await serviceToken(server, header)
      expect(response.status, what).toBe(400)
      expect(await response.json(), what).toMatchObject({ error: 'invalid_dpop_proof' })
    }
    expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })

  it('htu is compared without query or fragment; a proof is good once (a replay is refused)', async () => {
    const server = wallClock()
    const keys = await oauth.generateKeyPair('ES256')
    const once = await proof(keys, { htu: `${tokenUrl}?x=1#f` })
    const first = await serviceToken(server, once)
    expect(await first.json()).toMatchObject({ token_type: 'DPoP' })
    const replay = await serviceToken(server, once)
    expect(await replay.json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('used already') })
  })

  it('with dpopNonce, a proof without the server’s nonce is use_dpop_nonce with DPoP-Nonce; oauth4webapi retries with it', async () => {
    const server = wallClock({ dpopNonce: true })
    const keys = await oauth.generateKeyPair('ES256')
    const first = await serviceToken(server, await proof(keys))
    expect(first.status).toBe(400)
    expect(await first.json()).toMatchObject({ error: 'use_dpop_nonce' })
    const nonce = first.headers.get('dpop-nonce')!
    expect(nonce).toMatch(/^[\w-]{16,}$/)
    expect(await (await serviceToken(server, await proof(keys, { nonce: 'made-up' }))).json()).toMatchObject({ error: 'use_dpop_nonce' })
    expect(await (await serviceToken(server, await proof(keys, { nonce }))).json()).toMatchObject({ token_type: 'DPoP' })
    // The library's way: the first request fails with a nonce error, the retry carries the nonce.
    const as = await server.as()
    const dpop = oauth.DPoP(cli, keys)
    const { verifier, challenge } = await pkce()
    const params = oauth.validateAuthResponse(as, cli, await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: challenge })), 'st-1')
    const ask = () => oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, { ...server.options, DPoP: dpop })
    let tokens: oauth.TokenEndpointResponse
    try {
      tokens = await oauth.processAuthorizationCodeResponse(as, cli, await ask())
      expect.unreachable('the first request has no nonce')
    } catch (error) {
      expect(oauth.isDPoPNonceError(error)).toBe(true)
      tokens = await oauth.processAuthorizationCodeResponse(as, cli, await ask())
    }
    expect(tokens.token_type).toBe('dpop')
  })
})

describe('DPoP at the resource server (verifyAccessToken)', () => {
  async function bound() {
    const server = wallClock()
    const keys = await oauth.generateKeyPair('ES256')
    const dpop = oauth.DPoP(cli, keys)
    const { tokens } = await boundCodeFlow(server, dpop)
    return { server, keys, dpop, token: tokens.access_token, fetch: resource(server) }
  }
  const call = (f: ReturnType<typeof resource>, headers: Record<string, string>, method = 'GET', url = mcp) => f(url, { method, headers })

  it('a bound token with a proof by its key for this request passes (oauth4webapi’s protectedResourceRequest)', async () => {
    const { token, dpop, fetch } = await bound()
    const response = await oauth.protectedResourceRequest(token, 'GET', new URL(`${mcp}?q=1`), undefined, undefined, { DPoP: dpop, [oauth.customFetch]: fetch as never, [oauth.allowInsecureRequests]: true })
    expect(await response.json()).toEqual({ sub: 'user-ada' })
  })

  it('refused with 401 and WWW-Authenticate: DPoP error=...: as Bearer, without a proof, a replayed proof, another key, another method or URL, another token', async () => {
    const { server, token, keys, fetch } = await bound()
    const good = async (claims: Record<string, unknown> = {}, signer = keys) => proof(signer, { htm: 'GET', htu: mcp, ath: await ath(token), ...claims })
    const asBearer = await call(fetch, { authorization: `Bearer ${token}` })
    expect(asBearer.status).toBe(401)
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP resource_metadata="[^"]+", error="invalid_token", .*algs="ES256 /)
    const noProof = await call(fetch, { authorization: `DPoP ${token}` })
    expect(noProof.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"')
    const once = await good()
    expect((await call(fetch, { authorization: `DPoP ${token}`, dpop: once })).status).toBe(200)
    const replayed = await call(fetch, { authorization: `DPoP ${token}`, dpop: once })
    expect(replayed.status).toBe(401)
    expect(await replayed.json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('used already') })
    const other = await oauth.generateKeyPair('ES256')
    expect(await (await call(fetch, { authorization: `DPoP ${token}`, dpop: await good({}, other) })).json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('another key') })
    expect((await call(fetch, { authorization: `DPoP ${token}`, dpop: await good({ htm: 'POST' }) })).status).toBe(401)
    expect((await call(fetch, { authorization: `DPoP ${token}`, dpop: await good({ htu: 'https://api.example.com/mcp' }) })).status).toBe(401)
    expect((await call(fetch, { authorization: `DPoP ${token}`, dpop: await good({ ath: await ath('another token') }) })).status).toBe(401)
    expect((await call(fetch, { authorization: `DPoP ${token}`, dpop: await good({ iat: Math.floor(Date.now() / 1000) - 300 }) })).status).toBe(401)
    // An unbound token under the DPoP scheme is refused too: the scheme must say what the token is.
    const plain = ((await (await serviceToken(server)).json()) as { access_token: string }).access_token
    expect(await (await call(fetch, { authorization: `DPoP ${plain}`, dpop: await proof(keys, { htm: 'GET', htu: mcp, ath: await ath(plain) }) })).json()).toMatchObject({ error: 'invalid_token' })
    expect((await call(fetch, { authorization: `Bearer ${plain}` })).status).toBe(200)
  })
})

