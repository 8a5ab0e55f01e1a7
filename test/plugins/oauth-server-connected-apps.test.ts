/**
 * The user's side of the authorization server (src/plugins/oauth-server/connected-apps.ts):
 * GET /connected-apps lists the apps the signed-in user allowed, POST revokes one, its refresh and
 * access tokens refused at once wherever the grant is checked; signing out everywhere and a
 * password reset revoke the user's grants (or keep them, as the option says). And the attacks: a
 * grant of another user's (IDOR), a POST without its CSRF token, bad input, signed out, and the
 * same answer for an app that does not exist as for one the user never allowed.
 */
import * as oauth from 'oauth4webapi'
import { describe, expect, it } from 'vitest'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { Jar } from '../support/jar.js'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, mcp, origin, pkce, secret, type AuthServer } from './oauth-server-support.js'

const redirectUri = 'http://127.0.0.1:43117/callback'

/** The code flow for `cli` in `jar`'s browser: the tokens. */
async function tokensFor(server: AuthServer, jar: Jar, scope = 'tools:read') {
  const as = await server.as()
  const { verifier, challenge } = await pkce()
  const back = await authorizeInBrowser(jar, authorizationUrl(as, { code_challenge: challenge, scope }))
  const params = oauth.validateAuthResponse(as, cli, back, 'st-1')
  return oauth.processAuthorizationCodeResponse(as, cli, await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options))
}

const list = async (jar: Jar) => {
  const response = await jar.get('/auth/connected-apps')
  return { status: response.status, body: (await response.json()) as { apps?: Array<Record<string, unknown>>; error?: string } }
}
const revoke = async (jar: Jar, fields: Record<string, string>) => {
  const response = await jar.postForm('/auth/connected-apps', { csrfToken: await jar.csrf(), action: 'revoke', ...fields })
  return { status: response.status, body: (await response.json()) as { apps?: unknown[]; error?: string; message?: string } }
}

/** Whether the tokens still work: the access token at verifyAccessToken, the refresh token at the token endpoint (spent when it works). */
async function works(server: AuthServer, tokens: { access_token: string; refresh_token?: string }) {
  const verified = await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } }), { resource: mcp })
  const as = await server.as()
  const refreshed = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options)
  return { access: !(verified instanceof Response), refresh: refreshed.status === 200 }
}

const noErrors = (server: AuthServer) => expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])

describe('GET and POST /connected-apps', () => {
  it('lists the app with its name, logo, scopes in words, when allowed and last used; revoking stops its tokens at once and asks consent again', async () => {
    const server = authServer()
    const jar = await browser(server)
    expect((await list(jar)).body).toEqual({ apps: [] })
    const allowedAt = server.clock.now
    const tokens = await tokensFor(server, jar, 'tools:read tools:write')
    server.clock.now += 60_000
    const as = await server.as()
    const refreshed = await oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, server.options))
    const { body } = await list(jar)
    expect(body.apps).toEqual([
      {
        id: 'cli',
        name: 'Ada’s CLI',
        logoUri: 'https://cli.example.com/logo.png',
        scopes: [
          { scope: 'tools:read', words: { en: 'Read your tools' } },
          { scope: 'tools:write', words: { en: 'Change your tools', fr: 'Modifier vos outils' } },
        ],
        grantedAt: new Date(allowedAt).toISOString(),
        lastUsedAt: new Date(server.clock.now).toISOString(),
      },
    ])
    expect(JSON.stringify(body)).not.toContain(refreshed.refresh_token!)
    expect(await works(server, { access_token: refreshed.access_token, refresh_token: refreshed.refresh_token })).toEqual({ access: true, refresh: true })

    const next = await tokensFor(server, jar)
    expect((await revoke(jar, { id: 'cli' })).body).toEqual({ apps: [] })
    expect((await list(jar)).body).toEqual({ apps: [] })
    expect(await works(server, next)).toEqual({ access: false, refresh: false })
    // Introspection, as a resource server elsewhere would ask, says inactive too.
    const rs = { client_id: 'rs' }
    const asked = await oauth.processIntrospectionResponse(as, rs, await oauth.introspectionRequest(as, rs, oauth.ClientSecretBasic(`${secret}-rs`), next.access_token, server.options))
    expect(asked).toEqual({ active: false })
    // The consent is forgotten: the next request asks again.
    const start = await jar.get(authorizationUrl(as, { code_challenge: (await pkce()).challenge }))
    expect((await jar.get(start.headers.get('location')!)).status).toBe(200)
    noErrors(server)
  })

  it('IDOR: another user cannot see or revoke a grant of Ada’s, even naming its client, and revoking their own leaves Ada’s working', async () => {
    const server = authServer()
    const ada = await browser(server, 'ada')
    const adaTokens = await tokensFor(server, ada)
    const bo = await browser(server, 'bo')
    expect((await list(bo)).body).toEqual({ apps: [] })
    const refused = await revoke(bo, { id: 'cli' })
    expect(refused).toMatchObject({ status: 404, body: { error: 'ConnectedAppNotFound' } })
    // An unknown client id answers the same: nothing tells which clients exist.
    const unknown = await revoke(bo, { id: 'no-such-client' })
    expect(unknown).toEqual(refused)
    const boTokens = await tokensFor(server, bo)
    expect((await revoke(bo, { id: 'cli' })).status).toBe(200)
    expect(await works(server, boTokens)).toEqual({ access: false, refresh: false })
    expect(await works(server, adaTokens)).toEqual({ access: true, refresh: true })
    expect((await list(ada)).body.apps!.map((a) => a.id)).toEqual(['cli'])
    noErrors(server)
  })

  it('CSRF: a POST without the token, or with another browser’s, is 403 and revokes nothing', async () => {
    const server = authServer()
    const jar = await browser(server)
    const tokens = await tokensFor(server, jar)
    const bare = await jar.postForm('/auth/connected-apps', { action: 'revoke', id: 'cli' })
    expect(bare.status).toBe(403)
    expect(await bare.json()).toMatchObject({ error: 'MissingCSRF' })
    const foreign = await new Jar(server.handler, origin).csrf()
    const forged = await jar.postForm('/auth/connected-apps', { csrfToken: foreign, action: 'revoke', id: 'cli' })
    expect(forged.status).toBe(403)
    // JSON from another site with the cookie: the same check.
    const json = await jar.postJson('/auth/connected-apps', { action: 'revoke', id: 'cli' }, { origin: 'https://evil.example' })
    expect(json.status).toBe(403)
    expect(await works(server, tokens)).toEqual({ access: true, refresh: true })
    noErrors(server)
  })

  it('bad input is a clear 4xx and changes nothing; signed out is 401', async () => {
    const server = authServer()
    const jar = await browser(server)
    const tokens = await tokensFor(server, jar)
    const csrfToken = await jar.csrf()
    const cases: Array<[unknown, number, string]> = [
      [{ csrfToken, action: 'delete', id: 'cli' }, 400, 'InvalidRequest'],
      [{ csrfToken, id: 'cli' }, 400, 'InvalidRequest'],
      [{ csrfToken, action: 'revoke' }, 400, 'InvalidRequest'],
      [{ csrfToken, action: 'revoke', id: ['cli', 'cli'] }, 400, 'InvalidRequest'],
      [{ csrfToken, action: 'revoke', id: { $ne: '' } }, 400, 'InvalidRequest'],
      [{ csrfToken, action: 'revoke', id: 'x'.repeat(300) }, 400, 'InvalidRequest'],
    ]
    for (const [body, status, error] of cases) {
      const response = await jar.postJson('/auth/connected-apps', body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect(await response.json(), JSON.stringify(body)).toMatchObject({ error })
    }
    const big = await jar.postForm('/auth/connected-apps', { csrfToken, action: 'revoke', id: 'cli', pad: 'x'.repeat(200_000) })
    expect(big.status).toBe(413)
    const malformed = await jar.request('/auth/connected-apps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"csrfToken":' })
    expect(malformed.status).toBe(400)
    const stranger = new Jar(server.handler, origin)
    expect((await list(stranger)).status).toBe(401)
    expect((await revoke(stranger, { id: 'cli' })).status).toBe(401)
    expect(await works(server, tokens)).toEqual({ access: true, refresh: true })
    noErrors(server)
  })
})

describe('account events', () => {
  it('signing out everywhere revokes the user’s grants (default), another user’s stay; grantsOnSignOutEverywhere: keep leaves them', async () => {
    for (const rule of ['revoke', 'keep'] as const) {
      const server = authServer(rule === 'keep' ? { grantsOnSignOutEverywhere: 'keep' } : {})
      const jar = await browser(server)
      const mine = await tokensFor(server, jar)
      const bo = await browser(server, 'bo')
      const others = await tokensFor(server, bo)
      const everywhere = await jar.postForm('/auth/sessions', { csrfToken: await jar.csrf(), action: 'revoke-others' })
      expect(everywhere.status).toBe(200)
      expect(await works(server, mine), rule).toEqual(rule === 'revoke' ? { access: false, refresh: false } : { access: true, refresh: true })
      expect(await works(server, others)).toEqual({ access: true, refresh: true })
      noErrors(server)
    }
  })

  it('a password reset revokes the user’s grants (default); grantsOnPasswordReset: keep leaves them', async () => {
    for (const rule of ['revoke', 'keep'] as const) {
      const mail: PasswordEmail[] = []
      const server = authServer(rule === 'keep' ? { grantsOnPasswordReset: 'keep' } : {}, { providers: [Password({ sendEmail: (m) => void mail.push(m), breached: false })] })
      const jar = new Jar(server.handler, origin)
      const post = async (path: string, fields: Record<string, string>) => jar.postForm(`/auth/password/${path}`, { csrfToken: await jar.csrf(), ...fields }, { 'x-auth-return-redirect': '1' })
      expect((await post('sign-up', { email: 'ada@example.com', password: 'a long passphrase' })).status).toBe(200)
      expect((await post('verify', { email: 'ada@example.com', code: mail.at(-1)!.code! })).status).toBe(200)
      expect((await jar.postForm('/auth/callback/password', { csrfToken: await jar.csrf(), email: 'ada@example.com', password: 'a long passphrase' }, { 'x-auth-return-redirect': '1' })).status).toBe(200)
      const tokens = await tokensFor(server, jar)
      const other = new Jar(server.handler, origin)
      await other.postForm('/auth/password/forgot', { csrfToken: await other.csrf(), email: 'ada@example.com' }, { 'x-auth-return-redirect': '1' })
      await server.handler.settled()
      const code = mail.filter((m) => m.kind === 'reset-password').at(-1)!.code!
      expect((await other.postForm('/auth/password/reset', { csrfToken: await other.csrf(), email: 'ada@example.com', code, password: 'a new passphrase' }, { 'x-auth-return-redirect': '1' })).status).toBe(200)
      expect(await works(server, tokens), rule).toEqual(rule === 'revoke' ? { access: false, refresh: false } : { access: true, refresh: true })
      noErrors(server)
    }
  })

  it('the option is checked at start-up', () => {
    expect(() => authServer({ grantsOnPasswordReset: 'forget' as 'keep' })).toThrow(/grantsOnPasswordReset must be 'revoke' or 'keep', got "forget"/)
  })
})
