/**
 * The token and introspection endpoints' own rate limits (`oauthToken`, `oauthIntrospection`):
 * counted per client_id and per network address once the client authenticated, refused as an
 * OAuth error (429 temporarily_unavailable with Retry-After), an unknown client adding no count,
 * the window ending lets requests through again.
 */
import { describe, expect, it } from 'vitest'
import { authServer, origin, secret, type AuthServer } from './oauth-server-support.js'

let address = '192.0.2.1'
const limited = (rules: Record<string, { per: 'account' | 'client'; limit: number; windowSeconds: number }[]>) =>
  authServer({}, { rateLimit: { rules, getClientAddress: () => address } })

async function post(server: AuthServer, path: string, fields: Record<string, string>) {
  const response = await server.handler(new Request(`${origin}/auth/oauth2/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }))
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
}

const refresh = (server: AuthServer, clientId = 'cli') => post(server, 'token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'not-one' })
const service = (server: AuthServer) => post(server, 'token', { grant_type: 'client_credentials', client_id: 'svc', client_secret: `${secret}-svc`, resource: `${origin}/mcp` })

function refusedAsOAuth(answer: Awaited<ReturnType<typeof post>>, by: string) {
  expect(answer.status).toBe(429)
  expect(answer.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining(`Too many token requests ${by}`) })
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(answer.headers.get('cache-control')).toBe('no-store')
}

describe('the token endpoint’s rate limit', () => {
  it('per network address: past the limit 429 temporarily_unavailable with Retry-After, whatever the client; another address goes on; the window ends', async () => {
    address = '192.0.2.1'
    const server = limited({ oauthToken: [{ per: 'client', limit: 3, windowSeconds: 60 }] })
    for (let i = 0; i < 3; i++) expect((await refresh(server)).body.error).toBe('invalid_grant')
    refusedAsOAuth(await refresh(server), 'from this network address')
    // A valid request is refused too, before anything is issued.
    refusedAsOAuth(await service(server), 'from this network address')
    address = '192.0.2.2'
    expect((await service(server)).status).toBe(200)
    address = '192.0.2.1'
    server.clock.now += 61_000
    expect((await service(server)).status).toBe(200)
  })

  it('per client_id, from any address; other clients go on', async () => {
    const server = limited({ oauthToken: [{ per: 'account', limit: 2, windowSeconds: 60 }] })
    for (const at of ['198.51.100.1', '198.51.100.2']) {
      address = at
      expect((await service(server)).status).toBe(200)
    }
    address = '198.51.100.3'
    refusedAsOAuth(await service(server), 'for this client')
    expect((await refresh(server, 'cli')).body.error).toBe('invalid_grant')
  })

  it('an unknown client_id or a wrong secret is invalid_client and counts nothing against a real client', async () => {
    address = '203.0.113.5'
    const server = limited({ oauthToken: [{ per: 'account', limit: 1, windowSeconds: 60 }, { per: 'client', limit: 1, windowSeconds: 60 }] })
    for (let i = 0; i < 5; i++) {
      expect((await refresh(server, 'nobody')).status).toBe(401)
      expect((await post(server, 'token', { grant_type: 'client_credentials', client_id: 'svc', client_secret: 'wrong'.padEnd(48, 'x'), resource: `${origin}/mcp` })).status).toBe(401)
    }
    expect((await service(server)).status).toBe(200)
  })

  it('on by default: the defaults are generous and named in the configuration', async () => {
    const server = authServer({}, { rateLimit: { getClientAddress: () => '192.0.2.77' } })
    for (let i = 0; i < 5; i++) expect((await service(server)).status).toBe(200)
    const off = authServer({}, { rateLimit: { rules: { oauthToken: [] }, getClientAddress: () => '192.0.2.77' } })
    expect((await service(off)).status).toBe(200)
  })
})

describe('the introspection endpoint’s rate limit', () => {
  it('per client_id: past the limit 429 temporarily_unavailable with Retry-After', async () => {
    address = '192.0.2.9'
    const server = limited({ oauthIntrospection: [{ per: 'account', limit: 2, windowSeconds: 60 }] })
    const ask = () => post(server, 'introspect', { client_id: 'rs', client_secret: `${secret}-rs`, token: 'a.b.c' })
    for (let i = 0; i < 2; i++) expect(await ask()).toMatchObject({ status: 200, body: { active: false } })
    const refused = await ask()
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('Too many introspection requests for this client') })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // A public client is refused as before, uncounted.
    expect((await post(server, 'introspect', { client_id: 'cli', token: 'x' })).status).toBe(401)
  })
})
