/**
 * DPoP beyond the token endpoint: `dpop_jkt` at the authorization endpoint (RFC 9449 §10) binds
 * the code to a key, and a proof at PAR (§10.1) does the same; userinfo takes a DPoP-bound token
 * with a proof by its key. oauth4webapi drives the flows; refusals are made by hand. The servers
 * run on the wall clock, which the proofs read.
 */
import * as oauth from 'oauth4webapi'
import { calculateJwkThumbprint, exportJWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, origin, pkce, secret, web, type AuthServer } from './oauth-server-support.js'
import { proof } from './oauth-server-device-support.js'

const redirectUri = 'http://127.0.0.1:43117/callback'
const userinfoUrl = `${origin}/auth/oauth2/userinfo`
const server = () => authServer({ scopes: { openid: 'Sign you in', 'tools:read': 'Read your tools' } }, {}, { clock: { now: Date.now() } })
const thumbprint = async (keys: CryptoKeyPair) => calculateJwkThumbprint(await exportJWK(keys.publicKey), 'sha256')

/** A code for `cli` from an authorization request with these parameters. */
async function codeFor(s: AuthServer, params: Record<string, string> = {}) {
  const as = await s.as()
  const { verifier, challenge } = await pkce()
  const back = await authorizeInBrowser(await browser(s), authorizationUrl(as, { code_challenge: challenge, ...params }))
  return { as, verifier, back, params: oauth.validateAuthResponse(as, cli, back, 'st-1') }
}

const exchange = (s: AuthServer, code: string, verifier: string, dpop?: string) =>
  s.fetcher(`${origin}/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cli', code, redirect_uri: redirectUri, code_verifier: verifier }),
  })

describe('dpop_jkt at the authorization endpoint (RFC 9449 §10)', () => {
  it('the code is bound to the key: exchanged with a proof by it (oauth4webapi), refused without one or with another key', async () => {
    const s = server()
    const keys = await oauth.generateKeyPair('ES256')
    const { as, verifier, params } = await codeFor(s, { dpop_jkt: await thumbprint(keys) })
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, { ...s.options, DPoP: oauth.DPoP(cli, keys) }))
    expect(tokens.token_type).toBe('dpop')

    const bound = await codeFor(s, { dpop_jkt: await thumbprint(keys) })
    const code = bound.params.get('code')!
    const none = await exchange(s, code, bound.verifier)
    expect(none.status).toBe(400)
    expect(await none.json()).toEqual({ error: 'invalid_dpop_proof', error_description: 'This code is bound to a DPoP key: send a DPoP proof made with it' })
    const other = await codeFor(s, { dpop_jkt: await thumbprint(keys) })
    const stranger = await exchange(s, other.params.get('code')!, other.verifier, await proof(await oauth.generateKeyPair('ES256')))
    expect(await stranger.json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('another key') })
  })

  it('the grant’s refresh tokens are bound too, for a confidential client as well', async () => {
    const s = server()
    const keys = await oauth.generateKeyPair('ES256')
    const as = await s.as()
    const { verifier, challenge } = await pkce()
    const back = await authorizeInBrowser(await browser(s), authorizationUrl(as, { client_id: 'web', redirect_uri: 'https://web.example.com/cb', code_challenge: challenge, dpop_jkt: await thumbprint(keys) }))
    const params = oauth.validateAuthResponse(as, web, back, 'st-1')
    const dpop = oauth.DPoP(web, keys)
    const tokens = await oauth.processAuthorizationCodeResponse(as, web, await oauth.authorizationCodeGrantRequest(as, web, oauth.ClientSecretPost(secret), params, 'https://web.example.com/cb', verifier, { ...s.options, DPoP: dpop }))
    const plain = await oauth.refreshTokenGrantRequest(as, web, oauth.ClientSecretPost(secret), tokens.refresh_token!, s.options)
    expect(await plain.json()).toMatchObject({ error: 'invalid_dpop_proof' })
    const refreshed = await oauth.processRefreshTokenResponse(as, web, await oauth.refreshTokenGrantRequest(as, web, oauth.ClientSecretPost(secret), tokens.refresh_token!, { ...s.options, DPoP: dpop }))
    expect(refreshed.token_type).toBe('dpop')
  })

  it('a malformed dpop_jkt is the client’s invalid_request at its redirect URI, with iss; no code', async () => {
    const s = server()
    const as = await s.as()
    const jar = await browser(s)
    for (const bad of ['short', 'x'.repeat(44), 'a'.repeat(42) + '=', 'a'.repeat(42) + '+']) {
      const start = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge, dpop_jkt: bad }))
      expect(start.status).toBe(302)
      const back = new URL(start.headers.get('location')!)
      expect(Object.fromEntries(back.searchParams), bad).toEqual({ error: 'invalid_request', error_description: 'dpop_jkt must be the base64url SHA-256 JWK thumbprint of the DPoP key (RFC 9449 §10)', state: 'st-1', iss: origin })
    }
  })
})

describe('a DPoP proof at PAR (RFC 9449 §10.1)', () => {
  async function pushed(s: AuthServer, dpop: oauth.DPoPHandle | undefined, extra: Record<string, string> = {}) {
    const as = await s.as()
    const { verifier, challenge } = await pkce()
    const body = { response_type: 'code', redirect_uri: redirectUri, scope: 'tools:read', code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/mcp`, state: 'st-1', ...extra }
    const response = await oauth.pushedAuthorizationRequest(as, cli, oauth.None(), body, { ...s.options, ...(dpop ? { DPoP: dpop } : {}) })
    return { as, verifier, response }
  }

  it('binds the code to the proof’s key: only a proof by it exchanges the code', async () => {
    const s = server()
    const keys = await oauth.generateKeyPair('ES256')
    const dpop = oauth.DPoP(cli, keys)
    const { as, verifier, response } = await pushed(s, dpop)
    const { request_uri } = await oauth.processPushedAuthorizationResponse(as, cli, response)
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({ client_id: 'cli', request_uri }).toString()
    const params = oauth.validateAuthResponse(as, cli, await authorizeInBrowser(await browser(s), url.href), 'st-1')
    const code = params.get('code')!
    expect(await (await exchange(s, code, verifier)).json()).toMatchObject({ error: 'invalid_dpop_proof' })
  })

  it('with a matching dpop_jkt the flow goes on; with another one PAR refuses it', async () => {
    const s = server()
    const keys = await oauth.generateKeyPair('ES256')
    const mismatch = await pushed(s, oauth.DPoP(cli, keys), { dpop_jkt: await thumbprint(await oauth.generateKeyPair('ES256')) })
    expect(mismatch.response.status).toBe(400)
    expect(await mismatch.response.json()).toEqual({ error: 'invalid_dpop_proof', error_description: 'dpop_jkt is not the thumbprint of the DPoP proof’s key' })
    const matching = await pushed(s, oauth.DPoP(cli, keys), { dpop_jkt: await thumbprint(keys) })
    expect(matching.response.status).toBe(201)
    // A bad proof at PAR is refused as at the token endpoint.
    const forged = await s.fetcher(`${origin}/auth/oauth2/par`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof(keys) }, body: new URLSearchParams({ client_id: 'cli', response_type: 'code', redirect_uri: redirectUri, code_challenge: (await pkce()).challenge, code_challenge_method: 'S256', resource: `${origin}/mcp` }) })
    expect(await forged.json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('htu') })
  })
})

describe('userinfo with a DPoP-bound token', () => {
  async function boundUserinfoToken() {
    const s = server()
    const keys = await oauth.generateKeyPair('ES256')
    const dpop = oauth.DPoP(cli, keys)
    const { as, verifier, params } = await codeFor(s, { scope: 'openid', resource: undefined as unknown as string })
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, { ...s.options, DPoP: dpop }), { requireIdToken: true })
    return { s, as, keys, dpop, token: tokens.access_token }
  }
  const ath = async (token: string) => oauth.calculatePKCECodeChallenge(token)

  it('answers with a proof by the token’s key (oauth4webapi’s userInfoRequest)', async () => {
    const { s, as, dpop, token } = await boundUserinfoToken()
    // The RFC 8414 document names no userinfo endpoint; OpenID discovery's does.
    const response = await oauth.userInfoRequest({ ...as, userinfo_endpoint: userinfoUrl }, cli, token, { ...s.options, DPoP: dpop })
    expect(await response.json()).toMatchObject({ sub: 'user-ada' })
  })

  it('refuses it as Bearer, without a proof, with a replayed proof, another key, another URL or method, with WWW-Authenticate: DPoP', async () => {
    const { s, keys, token } = await boundUserinfoToken()
    const ask = (headers: Record<string, string>, method = 'GET') => s.handler(new Request(userinfoUrl, { method, headers }))
    const good = async (claims: Record<string, unknown> = {}, signer = keys) => proof(signer, { htm: 'GET', htu: userinfoUrl, ath: await ath(token), ...claims })
    const asBearer = await ask({ authorization: `Bearer ${token}` })
    expect(asBearer.status).toBe(401)
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token", .*algs="ES256 /)
    for (const [why, headers] of [
      ['no proof', { authorization: `DPoP ${token}` }],
      ['another key', { authorization: `DPoP ${token}`, dpop: await good({}, await oauth.generateKeyPair('ES256')) }],
      ['another URL', { authorization: `DPoP ${token}`, dpop: await good({ htu: 'https://evil.example/auth/oauth2/userinfo' }) }],
      ['another method', { authorization: `DPoP ${token}`, dpop: await good({ htm: 'POST' }) }],
      ['another token', { authorization: `DPoP ${token}`, dpop: await good({ ath: await ath('other') }) }],
    ] as const) {
      const refused = await ask(headers)
      expect(refused.status, why).toBe(401)
      expect(await refused.json(), why).toMatchObject({ error: 'invalid_dpop_proof' })
      expect(refused.headers.get('www-authenticate'), why).toMatch(/^DPoP error="invalid_dpop_proof"/)
    }
    const once = await good()
    expect((await ask({ authorization: `DPoP ${token}`, dpop: once })).status).toBe(200)
    expect(await (await ask({ authorization: `DPoP ${token}`, dpop: once })).json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('used already') })
    // A forged Host does not move the URL a proof must name.
    const forged = await s.handler(new Request('http://127.0.0.1:3000/auth/oauth2/userinfo', { headers: { authorization: `DPoP ${token}`, dpop: await good({ htu: 'http://127.0.0.1:3000/auth/oauth2/userinfo' }) } }))
    expect(forged.status).toBe(401)
    expect(s.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })
})
