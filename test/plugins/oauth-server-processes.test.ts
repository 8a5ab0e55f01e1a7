/**
 * The authorization server (src/plugins/oauth-server) across servers and time: two instances on
 * one PostgreSQL (DATABASE_URL) share keys, codes, grants and revocations (a code is spent once
 * whichever server sees it, even at the same instant); keys rotate, an old key kept until its
 * tokens have expired; and a resource server elsewhere checks tokens against the JWKS over HTTP.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oauth from 'oauth4webapi'
import { decodeProtectedHeader } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { toNodeHandler } from 'latchkey/node'
import { verifyAccessToken } from 'latchkey/plugins/oauth-server'
import { createIsolatedSchema } from '../adapters/isolated-schema.js'
import { needsService } from '../support/needs-service.js'
import { authorizationUrl, authorizeInBrowser, authServer, browser, cli, mcp, origin, pkce, type AuthServer } from './oauth-server-support.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const redirectUri = 'http://127.0.0.1:43117/callback'

async function codeFrom(server: AuthServer) {
  const as = await server.as()
  const { verifier, challenge } = await pkce()
  const back = await authorizeInBrowser(await browser(server), authorizationUrl(as, { code_challenge: challenge }))
  return { as, verifier, params: oauth.validateAuthResponse(as, cli, back, 'st-1') }
}

const exchange = (server: AuthServer, as: oauth.AuthorizationServer, params: URLSearchParams, verifier: string) =>
  oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, redirectUri, verifier, server.options)

const bearer = (token: string, url = mcp) => new Request(url, { headers: { authorization: `Bearer ${token}` } })

describe('keys rotate', () => {
  it('a new key signs once the newest is keyRotationDays old; the old one verifies until its tokens expired, then leaves the JWKS', async () => {
    const server = authServer({ keyRotationDays: 1 })
    const { as, verifier, params } = await codeFrom(server)
    const first = await oauth.processAuthorizationCodeResponse(as, cli, await exchange(server, as, params, verifier))
    const oldKid = decodeProtectedHeader(first.access_token).kid
    server.clock.now += 24 * 3600_000 - 200_000
    // Not yet a day old: the keys are read again (the cache is a minute), the same one signs.
    const next = await codeFrom(server)
    const second = await oauth.processAuthorizationCodeResponse(as, cli, await exchange(server, as, next.params, next.verifier))
    const newKid = decodeProtectedHeader(second.access_token).kid
    expect(newKid).toBe(oldKid)
    // A day old: a new key signs, the old one still published for the tokens it signed.
    server.clock.now += 200_000
    const third = await codeFrom(server)
    const rotated = await oauth.processAuthorizationCodeResponse(as, cli, await exchange(server, as, third.params, third.verifier))
    expect(decodeProtectedHeader(rotated.access_token).kid).not.toBe(oldKid)
    expect(await server.plugin.verifyAccessToken(bearer(second.access_token), { resource: mcp })).toMatchObject({ sub: 'user-ada' })
    const jwks = async () => ((await (await server.fetcher(as.jwks_uri!)).json()) as { keys: Array<{ kid: string; d?: string }> }).keys
    expect((await jwks()).map((k) => k.kid)).toEqual([decodeProtectedHeader(rotated.access_token).kid, oldKid])
    expect((await jwks()).every((k) => k.d === undefined)).toBe(true)
    // Once the new key has signed for longer than a token lives (300 s, and a minute of skew), the old one goes.
    server.clock.now += 361_000
    expect((await jwks()).map((k) => k.kid)).toEqual([decodeProtectedHeader(rotated.access_token).kid])
  })
})

describe('a resource server elsewhere', () => {
  it('checks tokens against the JWKS fetched over HTTP', async () => {
    // On the wall clock, which the remote check reads.
    const server = authServer({}, {}, { clock: { now: Date.now() } })
    const http: Server = createServer(toNodeHandler(server.handler))
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => http.close(resolve)))
    const jwksUri = `http://127.0.0.1:${(http.address() as AddressInfo).port}/auth/oauth2/jwks`
    const { as, verifier, params } = await codeFrom(server)
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await exchange(server, as, params, verifier))
    const checked = await verifyAccessToken(bearer(tokens.access_token), { issuer: origin, jwksUri, resource: mcp, scopes: ['tools:read'] })
    expect(checked).toMatchObject({ sub: 'user-ada', clientId: 'cli', scopes: ['tools:read'] })
    const wrongAudience = (await verifyAccessToken(bearer(tokens.access_token), { issuer: origin, jwksUri, resource: 'https://api.example.com' })) as Response
    expect(wrongAudience.status).toBe(401)
    const wrongIssuer = (await verifyAccessToken(bearer(tokens.access_token), { issuer: 'https://evil.example', jwksUri, resource: mcp })) as Response
    expect(wrongIssuer.status).toBe(401)
    const scoped = (await verifyAccessToken(bearer(tokens.access_token), { issuer: origin, jwksUri, resource: mcp, scopes: ['tools:write'] })) as Response
    expect(scoped.status).toBe(403)
  })
})

const url = needsService('DATABASE_URL', 'the authorization server on PostgreSQL', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/oauth-server-processes.test.ts')

describe.runIf(url)('two servers on one PostgreSQL', () => {
  async function pair() {
    const schema = await createIsolatedSchema(url!)
    closers.push(() => schema.drop())
    const clock = { now: Date.parse('2026-06-01T00:00:00Z') }
    const make = () => {
      const pool = schema.pgPool(3)
      closers.push(() => pool.end())
      return authServer({}, {}, { clock, store: (plugin) => PostgresAdapter(pool, { plugins: [plugin] }) })
    }
    const [a, b] = [make(), make()]
    await migrate(PostgresAdapter(schema.pgPool(1)).db, { plugins: [a.plugin] })
    return { a, b }
  }

  it('a code from one is spent at the other, once, even when both see it at the same instant; the replay revokes on both', async () => {
    const { a, b } = await pair()
    const { as, verifier, params } = await codeFrom(a)
    const answers = await Promise.all([exchange(a, as, params, verifier), exchange(b, as, params, verifier)])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
    const won = answers.find((r) => r.status === 200)!
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, won)
    // The loser was a replay: the winner's tokens are revoked, on both servers.
    for (const server of [a, b]) expect(((await server.plugin.verifyAccessToken(bearer(tokens.access_token), { resource: mcp })) as Response).status).toBe(401)
  })

  it('tokens signed by one verify at the other, and a refresh at one rotates for both', async () => {
    const { a, b } = await pair()
    const { as, verifier, params } = await codeFrom(a)
    const tokens = await oauth.processAuthorizationCodeResponse(as, cli, await exchange(b, as, params, verifier))
    expect(await a.plugin.verifyAccessToken(bearer(tokens.access_token), { resource: mcp })).toMatchObject({ sub: 'user-ada' })
    const refreshed = await oauth.processRefreshTokenResponse(as, cli, await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, a.options))
    expect(await b.plugin.verifyAccessToken(bearer(refreshed.access_token), { resource: mcp })).toMatchObject({ sub: 'user-ada' })
    const reuse = await oauth.refreshTokenGrantRequest(as, cli, oauth.None(), tokens.refresh_token!, b.options)
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' })
    expect(((await a.plugin.verifyAccessToken(bearer(refreshed.access_token), { resource: mcp })) as Response).status).toBe(401)
  })
})
