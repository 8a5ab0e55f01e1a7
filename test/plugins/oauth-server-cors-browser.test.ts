/**
 * A single-page app as an OAuth client, in Chromium: a page on another origin (in `corsOrigins`)
 * exchanges its code at the token endpoint with fetch and a DPoP proof made in the page, reads
 * the DPoP-Nonce header the server asks for, and gets its tokens. A page on an origin the
 * configuration does not name is stopped by the browser at the preflight: its request never
 * reaches the endpoint (the same code still works afterwards).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oauth from 'oauth4webapi'
import { expect, test } from 'vitest'
import { toNodeHandler } from 'latchkey/node'
import { browserAnd } from '../support/browser-and.js'
import { authorizeInBrowser, authServer, browser, cli, pkce, type AuthServer } from './oauth-server-support.js'

const listen = async (handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) => {
  const http = createServer(handle)
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  return { http, port: (http.address() as AddressInfo).port }
}
const closing = (http: Server) => new Promise((resolve) => http.close(resolve))

let server: AuthServer
const env = browserAnd(async () => {
  let handle: ReturnType<typeof toNodeHandler> | undefined
  const auth = await listen((req, res) => handle!(req, res))
  const page = (req: unknown, res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SPA</title>')
  const allowed = await listen(page)
  const other = await listen(page)
  const origin = `http://localhost:${auth.port}`
  const spa = `http://127.0.0.1:${allowed.port}`
  server = authServer({ resources: [`${origin}/mcp`], corsOrigins: [spa], dpopNonce: true }, { origin }, { clock: { now: Date.now() } })
  handle = toNodeHandler(server.handler)
  return { origin, spa, other: `http://127.0.0.1:${other.port}`, close: () => Promise.all([auth.http, allowed.http, other.http].map(closing)) }
})

/** In the page: a fresh ES256 key, a proof per request (with the nonce once told), the exchange by fetch. */
const exchange = ({ url, form }: { url: string; form: Record<string, string> }) =>
  (async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
    const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keys.publicKey)
    const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const part = (value: unknown) => b64(new TextEncoder().encode(JSON.stringify(value)))
    const proof = async (nonce?: string) => {
      const signed = `${part({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })}.${part({ jti: crypto.randomUUID(), htm: 'POST', htu: url, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}) })}`
      return `${signed}.${b64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(signed)))}`
    }
    const send = async (nonce?: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof(nonce) }, body: new URLSearchParams(form) })
    try {
      const first = await send()
      const told = { status: first.status, error: ((await first.json()) as { error: string }).error, nonce: first.headers.get('dpop-nonce') }
      const second = await send(told.nonce ?? undefined)
      return { told, status: second.status, body: (await second.json()) as { token_type: string; access_token: string; refresh_token: string } }
    } catch (error) {
      return { blocked: String(error) }
    }
  })()

test('a page on an allowed origin exchanges its code by fetch with DPoP; a page elsewhere is stopped at the preflight', async () => {
  const { origin, spa, other } = env.server
  const base = new URL(origin)
  const as = await oauth.processDiscoveryResponse(base, await oauth.discoveryRequest(base, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }))
  const { verifier, challenge } = await pkce()
  const url = new URL(as.authorization_endpoint!)
  const redirectUri = 'http://127.0.0.1:43117/callback'
  for (const [k, v] of Object.entries({ client_id: 'cli', response_type: 'code', redirect_uri: redirectUri, scope: 'tools:read', code_challenge_method: 'S256', code_challenge: challenge, resource: `${origin}/mcp`, state: 'st-1' })) url.searchParams.set(k, v)
  const jar = await browser(server)
  const params = oauth.validateAuthResponse(as, cli, await authorizeInBrowser(jar, url.href.replace(origin, 'http://localhost:3000')), 'st-1')
  const form = { grant_type: 'authorization_code', client_id: 'cli', code: params.get('code')!, redirect_uri: redirectUri, code_verifier: verifier }
  const context = await env.browser.newContext()
  const page = await context.newPage()

  await page.goto(`${other}/`)
  const stopped = await page.evaluate(exchange, { url: as.token_endpoint!, form })
  expect(stopped).toEqual({ blocked: expect.stringContaining('Failed to fetch') })

  await page.goto(`${spa}/`)
  const done = await page.evaluate(exchange, { url: as.token_endpoint!, form })
  expect(done).toMatchObject({ told: { status: 400, error: 'use_dpop_nonce', nonce: expect.any(String) }, status: 200, body: { token_type: 'DPoP' } })
  expect(server.logs.filter((l) => l.includes('preflight refused'))).toHaveLength(1)
  await context.close()
})
