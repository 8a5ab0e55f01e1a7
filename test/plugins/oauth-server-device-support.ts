/**
 * The device grant's and DPoP's helpers for the authorization server's tests: a device client
 * (public `tv`, confidential `box`), the device's requests and polls through oauth4webapi, the
 * user's answer on the device page, and DPoP proofs made by hand.
 */
import * as oauth from 'oauth4webapi'
import { exportJWK, SignJWT } from 'jose'
import { expect } from 'vitest'
import { authServer, clients, mcp, origin, secret, type AuthServer } from './oauth-server-support.js'
import type { Jar } from '../support/jar.js'
import type { OAuthServerOptions } from 'latchkey/plugins/oauth-server'

export const tokenUrl = `${origin}/auth/oauth2/token`

export const deviceGrantType = 'urn:ietf:params:oauth:grant-type:device_code'
export const tv: oauth.Client = { client_id: 'tv', token_endpoint_auth_method: 'none' }
export const deviceClients = [
  ...clients,
  { clientId: 'tv', name: 'TV CLI', redirectUris: [], grantTypes: [deviceGrantType, 'refresh_token'] as never },
  { clientId: 'box', name: 'Box', clientSecret: `${secret}-box`, redirectUris: [], grantTypes: [deviceGrantType] as never },
]

export const deviceServer = (overrides: Partial<OAuthServerOptions> = {}, config: Parameters<typeof authServer>[1] = {}, more: Parameters<typeof authServer>[2] = {}) =>
  authServer({ clients: deviceClients, ...overrides }, config, more)

export async function startDevice(server: AuthServer, as: oauth.AuthorizationServer, scope = 'tools:read') {
  const response = await oauth.deviceAuthorizationRequest(as, tv, oauth.None(), { scope, resource: mcp }, server.options)
  return oauth.processDeviceAuthorizationResponse(as, tv, response)
}

export const poll = (server: AuthServer, as: oauth.AuthorizationServer, deviceCode: string) => oauth.deviceCodeGrantRequest(as, tv, oauth.None(), deviceCode, server.options)

/** The poll's OAuth error code, or 'tokens'. */
export async function pollResult(server: AuthServer, as: oauth.AuthorizationServer, deviceCode: string): Promise<string> {
  const response = await poll(server, as, deviceCode)
  if (response.status === 200) return 'tokens'
  expect(response.status).toBe(400)
  return ((await response.json()) as { error: string }).error
}

export const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]

/** The user types `typed` on the device page, then answers `decision` on the consent screen. */
export async function answerOnPage(jar: Jar, typed: string, decision: 'allow' | 'deny' = 'allow') {
  const form = await jar.get('/auth/oauth2/device')
  expect(form.status).toBe(200)
  const csrfToken = hidden(await form.text(), 'csrfToken')!
  const consent = await jar.postForm('/auth/oauth2/device', { csrfToken, user_code: typed })
  const consentPage = await consent.text()
  expect(consent.status, consentPage).toBe(200)
  const answered = await jar.postForm('/auth/oauth2/device', { csrfToken: hidden(consentPage, 'csrfToken')!, user_code: hidden(consentPage, 'user_code')!, decision })
  return { consentPage, answered, answeredPage: await answered.text() }
}

/** A proof made by hand, for the checks oauth4webapi would never get wrong. */
export async function proof(keys: CryptoKeyPair, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, now = Date.now()) {
  const jwk = await exportJWK(keys.publicKey)
  return new SignJWT({ jti: crypto.randomUUID(), htm: 'POST', htu: tokenUrl, iat: Math.floor(now / 1000), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk, ...header } as never)
    .sign(keys.privateKey)
}

const svcAuth = `Basic ${btoa(`svc:${secret}-svc`)}`
/** client_credentials for `svc` with the given DPoP header(s). */
export const serviceToken = (server: AuthServer, dpop?: string) =>
  server.fetcher(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: svcAuth, ...(dpop !== undefined ? { dpop } : {}) },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: mcp }),
  })

