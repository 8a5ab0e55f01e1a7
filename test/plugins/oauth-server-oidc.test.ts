/**
 * OpenID Connect on the authorization server (src/plugins/oauth-server: oidc.ts, id-token.ts,
 * prompt.ts), driven by openid-client, an independent relying party, over HTTP: discovery, the code
 * flow with PKCE and a nonce, the ID token's checks (signature by the JWKS, iss, aud, nonce,
 * at_hash), userinfo; and the refusals: a nonce that does not match, an ID token for another
 * client, userinfo with a token lacking openid or made for an API, prompt=none without a session
 * or a consent, prompt=login, max_age and prompt=consent.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { Issuer, generators, type BaseClient } from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeHandler } from 'latchkey/node'
import { Jar } from '../support/jar.js'
import { authServer, consentFields, mcp, type AuthServer } from './oauth-server-support.js'

const redirectUri = 'http://127.0.0.1:43117/callback'
let http: Server
let origin: string
let server: AuthServer
let rp: BaseClient
/** Added to the server's clock (ms): a sign-in made older without waiting. */
let ahead = 0

const scopes = {
  openid: 'Sign you in with your account',
  email: 'See your email address',
  profile: { en: 'See your name and picture', fr: 'Voir votre nom et votre photo' },
  'tools:read': 'Read your tools',
  'tools:write': 'Change your tools',
}

beforeAll(async () => {
  let handle: ReturnType<typeof toNodeHandler> = async (_, res) => void res.end()
  http = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  // openid-client checks iat and exp against its own clock: the server's is the real one (and `ahead`).
  server = authServer({ scopes }, { origin }, { clock: { get now() { return Date.now() + ahead } } as { now: number } })
  handle = toNodeHandler(server.handler)
  const issuer = await Issuer.discover(origin)
  rp = new issuer.Client({ client_id: 'cli', token_endpoint_auth_method: 'none', redirect_uris: [redirectUri], response_types: ['code'] })
})
afterAll(() => new Promise((resolve) => http.close(resolve)))

/** A browser signed in as `user` (credentials), on the real origin. */
async function signedIn(user = 'ada'): Promise<Jar> {
  const jar = new Jar(server.handler, origin)
  const done = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: user })
  expect(done.status).toBe(302)
  return jar
}

/** Follows the authorization URL as `jar`, allowing on the consent page if it shows; answers where the browser lands. */
async function authorize(jar: Jar, url: string): Promise<URL> {
  const start = await jar.get(url)
  expect(start.status, await start.clone().text()).toBe(302)
  const consent = await jar.get(start.headers.get('location')!)
  if (consent.status === 302) return new URL(consent.headers.get('location')!)
  expect(consent.status).toBe(200)
  const answered = await jar.postForm('/auth/oauth2/consent', { ...consentFields(await consent.text()), decision: 'allow' })
  return new URL(answered.headers.get('location')!)
}

function start(extra: Record<string, string> = {}) {
  const verifier = generators.codeVerifier()
  const nonce = generators.nonce()
  const state = generators.state()
  const url = rp.authorizationUrl({ scope: 'openid email profile', redirect_uri: redirectUri, code_challenge: generators.codeChallenge(verifier), code_challenge_method: 'S256', nonce, state, ...extra })
  return { verifier, nonce, state, url }
}

describe('discovery', () => {
  it('/.well-known/openid-configuration: the RFC 8414 fields and OIDC’s, the issuer from the configured origin whatever the Host', async () => {
    expect(rp.issuer.metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/auth/oauth2/authorize`,
      token_endpoint: `${origin}/auth/oauth2/token`,
      userinfo_endpoint: `${origin}/auth/oauth2/userinfo`,
      jwks_uri: `${origin}/auth/oauth2/jwks`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      prompt_values_supported: ['none', 'login', 'consent'],
      request_parameter_supported: false,
    })
    expect(rp.issuer.metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']))
    const forged = await server.handler(new Request(`${origin}/.well-known/openid-configuration`, { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } }))
    expect(((await forged.json()) as { issuer: string }).issuer).toBe(origin)
    expect(forged.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('is not served where the app lists no openid scope', async () => {
    const plain = authServer()
    expect((await plain.handler(new Request('http://localhost:3000/.well-known/openid-configuration'))).status).toBe(404)
  })
})

describe('the code flow', () => {
  it('PKCE and a nonce: openid-client validates the ID token (iss, aud, exp, nonce, at_hash), and userinfo answers the same user', async () => {
    const { verifier, nonce, state, url } = start()
    const back = await authorize(await signedIn(), url)
    const tokens = await rp.callback(redirectUri, rp.callbackParams(back.href), { code_verifier: verifier, nonce, state })
    const claims = tokens.claims()
    expect(claims).toMatchObject({ iss: origin, sub: 'user-ada', aud: 'cli', nonce, email: 'ada@example.com', email_verified: false, amr: ['pwd'] })
    expect(claims.auth_time).toBeTypeOf('number')
    expect(claims.at_hash).toBeTypeOf('string')
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    // The access token is for userinfo alone (no resource was asked).
    expect(decodeJwt(tokens.access_token!).aud).toBe(`${origin}/auth/oauth2/userinfo`)
    expect(await rp.userinfo(tokens)).toEqual({ sub: 'user-ada', email: 'ada@example.com', email_verified: false })
    expect(await rp.userinfo(tokens, { method: 'POST' })).toMatchObject({ sub: 'user-ada' })
  })

  it('a nonce that does not match is refused by the relying party', async () => {
    const { verifier, state, url } = start()
    const back = await authorize(await signedIn(), url)
    await expect(rp.callback(redirectUri, rp.callbackParams(back.href), { code_verifier: verifier, nonce: generators.nonce(), state })).rejects.toThrow(/nonce mismatch/)
  })

  it('the ID token is for its client only (aud), and is no access token; the access token is no ID token', async () => {
    const { verifier, nonce, state, url } = start({ resource: mcp, scope: 'openid tools:read' })
    const back = await authorize(await signedIn(), url)
    const tokens = await rp.callback(redirectUri, rp.callbackParams(back.href), { code_verifier: verifier, nonce, state }, { exchangeBody: { resource: mcp } })
    const keys = createRemoteJWKSet(new URL(rp.issuer.metadata.jwks_uri!))
    await expect(jwtVerify(tokens.id_token!, keys, { issuer: origin, audience: 'web' })).rejects.toThrow(/aud/)
    await expect(jwtVerify(tokens.id_token!, keys, { issuer: origin, audience: 'cli' })).resolves.toBeTruthy()
    // Asked with an API: the access token is that API's, and the ID token names no email (none asked).
    expect(decodeJwt(tokens.access_token!).aud).toBe(mcp)
    expect(tokens.claims().email).toBeUndefined()
    const asAccess = await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${tokens.id_token}` } }), { resource: mcp })
    expect((asAccess as Response).status).toBe(401)
    await expect(jwtVerify(tokens.access_token!, keys, { issuer: origin, audience: 'cli' })).rejects.toThrow()
  })
})

describe('userinfo refuses', () => {
  const userinfo = (token?: string, header = token && `Bearer ${token}`) => server.handler(new Request(`${origin}/auth/oauth2/userinfo`, { headers: header ? { authorization: header } : {} }))

  it('no token, a malformed header, a made-up token, a token for an API, a token without openid', async () => {
    const none = await userinfo()
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer, DPoP algs="ES256 /)
    expect((await userinfo(undefined, 'Bearer a b')).status).toBe(400)
    const forged = await userinfo('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLWFkYSJ9.')
    expect(forged.status).toBe(401)
    expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"')
    // A token for the API (with openid) stays with the API.
    const api = start({ resource: mcp, scope: 'openid tools:read' })
    const apiTokens = await rp.callback(redirectUri, rp.callbackParams((await authorize(await signedIn(), api.url)).href), { code_verifier: api.verifier, nonce: api.nonce, state: api.state }, { exchangeBody: { resource: mcp } })
    expect((await userinfo(apiTokens.access_token)).status).toBe(401)
    // A userinfo token narrowed at refresh to a scope without openid.
    const flow = start()
    const tokens = await rp.callback(redirectUri, rp.callbackParams((await authorize(await signedIn(), flow.url)).href), { code_verifier: flow.verifier, nonce: flow.nonce, state: flow.state })
    const narrowed = await rp.refresh(tokens.refresh_token!, { exchangeBody: { scope: 'email' } })
    expect(narrowed.id_token).toBeUndefined()
    const refused = await userinfo(narrowed.access_token)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"')
    expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })

  it('a revoked grant’s token at once', async () => {
    const flow = start()
    const tokens = await rp.callback(redirectUri, rp.callbackParams((await authorize(await signedIn(), flow.url)).href), { code_verifier: flow.verifier, nonce: flow.nonce, state: flow.state })
    expect((await userinfo(tokens.access_token)).status).toBe(200)
    await rp.revoke(tokens.refresh_token!)
    expect((await userinfo(tokens.access_token)).status).toBe(401)
  })
})

describe('prompt and max_age', () => {
  /** The first hop after the consent URL: the client's redirect, the sign-in page, or the consent page (200). */
  async function firstAnswer(jar: Jar, url: string): Promise<{ status: number; to?: URL }> {
    const begun = await jar.get(url)
    expect(begun.status).toBe(302)
    const next = await jar.get(begun.headers.get('location')!)
    return { status: next.status, ...(next.headers.get('location') && { to: new URL(next.headers.get('location')!) }) }
  }

  it('prompt=none without a session answers login_required at the redirect URI, with state and iss', async () => {
    const { url, state } = start({ prompt: 'none' })
    const { to } = await firstAnswer(new Jar(server.handler, origin), url)
    expect(`${to!.origin}${to!.pathname}`).toBe(redirectUri)
    expect(Object.fromEntries(to!.searchParams)).toMatchObject({ error: 'login_required', state, iss: origin })
    expect(to!.searchParams.has('code')).toBe(false)
  })

  it('prompt=none with a session: consent_required before consent, a code once consent is remembered', async () => {
    const jar = await signedIn('bo')
    const before = await firstAnswer(jar, start({ prompt: 'none' }).url)
    expect(before.to!.searchParams.get('error')).toBe('consent_required')
    await authorize(jar, start().url)
    const after = await firstAnswer(jar, start({ prompt: 'none' }).url)
    expect(after.to!.searchParams.get('code')).toBeTruthy()
  })

  it('prompt=login sends a signed-in user to sign in again, and goes on once they did; max_age likewise for an old sign-in', async () => {
    const jar = await signedIn()
    await authorize(jar, start().url)
    const { url } = start({ prompt: 'login' })
    const again = await jar.get(url)
    const consentUrl = again.headers.get('location')!
    const toSignIn = await jar.get(consentUrl)
    expect(new URL(toSignIn.headers.get('location')!).pathname).toBe('/auth/signin')
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', callbackUrl: consentUrl })
    expect(new URL((await jar.get(consentUrl)).headers.get('location')!).searchParams.get('code')).toBeTruthy()
    // The sign-in 2 minutes old: max_age=60 asks for another, max_age=3600 goes on.
    ahead += 120_000
    try {
      const old = await firstAnswer(jar, start({ max_age: '60' }).url)
      expect(old.to!.pathname).toBe('/auth/signin')
      const fresh = await firstAnswer(jar, start({ max_age: '3600' }).url)
      expect(fresh.to!.searchParams.get('code')).toBeTruthy()
    } finally {
      ahead = 0
    }
  })

  it('prompt=consent shows the consent page though consent is remembered', async () => {
    const jar = await signedIn()
    await authorize(jar, start().url)
    expect((await firstAnswer(jar, start({ prompt: 'consent' }).url)).status).toBe(200)
  })

  it('a bad prompt or max_age is the client’s invalid_request; prompt=none with another prompt too', async () => {
    const jar = await signedIn()
    const bad: Array<Record<string, string>> = [{ prompt: 'select_account' }, { prompt: 'none login' }, { max_age: '-1' }, { max_age: 'soon' }]
    for (const extra of bad) {
      const answered = await jar.get(start(extra).url)
      expect(answered.status, JSON.stringify(extra)).toBe(302)
      expect(new URL(answered.headers.get('location')!).searchParams.get('error'), JSON.stringify(extra)).toBe('invalid_request')
    }
  })
})
