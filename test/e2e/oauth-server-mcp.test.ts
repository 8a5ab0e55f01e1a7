/**
 * The MCP TypeScript SDK end to end against latchkey's authorization server
 * (src/plugins/oauth-server): an MCP server built with @modelcontextprotocol/sdk, protected by
 * `oauth.verifyAccessToken`, answers 401 naming its protected resource metadata; the SDK's OAuth
 * client discovers the authorization server, identifies itself (once with a client ID metadata
 * document, once by dynamic registration), sends Chromium through the built-in sign-in page and
 * the consent page, calls a tool, refreshes when its access token has expired, and is refused
 * once the user revokes it in their connected apps (the refusal says the grant was revoked, every time).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { refreshAuthorization, discoverAuthorizationServerMetadata, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeHandler } from 'latchkey/node'
import type { OAuthServer, OAuthServerStore } from 'latchkey/plugins/oauth-server'
import { browserAnd } from '../support/browser-and.js'
import { documentServer, serveJson, type DocumentServer } from '../plugins/oauth-server-documents.js'
import { authServer } from '../plugins/oauth-server-support.js'

interface Setup {
  origin: string
  mcpUrl: string
  callback: string
  plugin: OAuthServer
  adapter: OAuthServerStore
  clock: { now: number }
  logs: string[]
  docs: DocumentServer
  /** Resolves with the next code that reaches /callback. */
  nextCode(): Promise<string>
  close(): Promise<void>
}

async function start(): Promise<Setup> {
  const docs = await documentServer()
  let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 })
  const server: Server = createServer(toNodeHandler((request: Request) => handle(request)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const mcpUrl = `${origin}/mcp`
  const { handler: latchkey, plugin, adapter, clock, logs } = authServer(
    {
      clients: [],
      scopes: { 'tools:read': 'Use your tools' },
      resources: [mcpUrl],
      clientIdMetadataDocuments: { unsafeTesting: { allowLoopback: true, ca: docs.ca } },
      registration: { open: true },
    },
    { origin },
    { clock: { now: Date.now() } },
  )
  let codes: Array<(code: string) => void> = []
  handle = async (request) => {
    const url = new URL(request.url)
    if (url.pathname === '/callback') {
      const code = url.searchParams.get('code')
      if (code) for (const give of codes.splice(0)) give(code)
      return new Response(code ? 'You can close this tab.' : `Refused: ${url.searchParams.get('error')}`, { headers: { 'content-type': 'text/plain' } })
    }
    if (url.pathname === '/mcp') {
      const token = await plugin.verifyAccessToken(request, { resource: mcpUrl, scopes: ['tools:read'] })
      if (token instanceof Response) return token
      const mcp = new McpServer({ name: 'latchkey-protected', version: '1.0.0' })
      mcp.registerTool('whoami', { description: 'The signed-in user and the client' }, async () => ({ content: [{ type: 'text', text: `${token.sub} via ${token.clientId}` }] }))
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      await mcp.connect(transport)
      return transport.handleRequest(request)
    }
    return latchkey(request)
  }
  return {
    origin,
    mcpUrl,
    callback: `${origin}/callback`,
    plugin,
    adapter: adapter as typeof adapter & OAuthServerStore,
    clock,
    logs,
    docs,
    nextCode: () => new Promise((resolve) => codes.push(resolve)),
    close: async () => {
      codes = []
      await docs.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const env = browserAnd(start)

/** The SDK's provider, in memory: where it sends the browser is handed to the test. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier = ''
  registered = 0
  readonly authorizations: URL[] = []
  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK Test Client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    if (!this.info) this.registered++
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizations.push(url)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
    if (scope === 'all' || scope === 'client') this.info = undefined
  }
}

/** Connects a new MCP client through the provider; answers the client, or the UnauthorizedError the SDK threw. */
async function connect(provider: TestProvider): Promise<{ client?: Client; transport: StreamableHTTPClientTransport; refused?: unknown }> {
  const transport = new StreamableHTTPClientTransport(new URL(env.server.mcpUrl), { authProvider: provider })
  const client = new Client({ name: 'sdk-test', version: '1.0.0' })
  try {
    await client.connect(transport)
    return { client, transport }
  } catch (error) {
    return { transport, refused: error }
  }
}

/** Chromium: the authorization URL, the built-in sign-in page (as ada), the consent page (Allow); answers the code. */
async function browserStep(url: URL): Promise<string> {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  const code = env.server.nextCode()
  await page.goto(url.href)
  await page.waitForURL((u) => u.pathname === '/auth/signin')
  await page.locator('input[name="username"]').fill('ada')
  await page.getByRole('button', { name: 'Sign in with Credentials' }).click()
  await page.waitForURL((u) => u.pathname === '/auth/oauth2/consent')
  expect(await page.getByRole('heading').first().textContent()).toContain('SDK Test Client')
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL((u) => u.pathname === '/callback')
  const answer = await code
  signedIn = page
  return answer
}

/** The signed-in browser's page, kept for the user's own revocation. */
let signedIn: Page | undefined

/** The user revokes the app in their connected apps (POST /auth/connected-apps, as the element does). */
async function revokeAsTheUser(clientId: string): Promise<void> {
  const page = signedIn!
  const answer = await page.evaluate(async (id) => {
    const { csrfToken } = await (await fetch('/auth/csrf')).json()
    const listed = await (await fetch('/auth/connected-apps')).json()
    const revoked = await fetch('/auth/connected-apps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'revoke', id, csrfToken }) })
    return { listed: listed.apps.map((a: { id: string }) => a.id), status: revoked.status, left: (await revoked.json()).apps.length }
  }, clientId)
  expect(answer).toEqual({ listed: [clientId], status: 200, left: 0 })
  await page.context().close()
  signedIn = undefined
}

async function whoami(client: Client): Promise<string> {
  const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: Array<{ type: string; text: string }> }
  return result.content[0]!.text
}

/** The whole run for one provider: 401, discovery, browser, tool, refresh, revocation. */
async function run(provider: TestProvider): Promise<void> {
  const first = await connect(provider)
  expect(first.refused).toBeInstanceOf(UnauthorizedError)
  expect(provider.authorizations).toHaveLength(1)
  const code = await browserStep(provider.authorizations[0]!)
  await first.transport.finishAuth(code)
  const { client } = await connect(provider)
  const clientId = provider.info!.client_id
  expect(await whoami(client!)).toBe(`user-ada via ${clientId}`)

  // The access token expires (300 s): the SDK's next call is refused, it refreshes, and goes on.
  const before = provider.saved!
  env.server.clock.now += 301_000
  expect(await whoami(client!)).toBe(`user-ada via ${clientId}`)
  expect(provider.saved!.refresh_token).not.toBe(before.refresh_token)
  expect(provider.saved!.access_token).not.toBe(before.access_token)
  await client!.close()

  // The user revokes the app in their connected apps: the tokens stop at once.
  const refreshToken = provider.saved!.refresh_token!
  await revokeAsTheUser(clientId)
  const warned = env.server.logs.length
  const after = await connect(provider)
  expect(after.refused).toBeInstanceOf(UnauthorizedError)
  // The SDK dropped its tokens and asks the user again.
  expect(provider.saved).toBeUndefined()
  expect(provider.authorizations).toHaveLength(2)
  // The same refresh token again, twice: each answer says the grant was revoked, never that the token was used already.
  const metadata = (await discoverAuthorizationServerMetadata(env.server.origin))!
  for (let i = 0; i < 2; i++) {
    await expect(refreshAuthorization(env.server.origin, { metadata, clientInformation: provider.info!, refreshToken, resource: new URL(env.server.mcpUrl) })).rejects.toThrow('The grant was revoked')
  }
  const logged = env.server.logs.slice(warned)
  expect(logged.filter((l) => l.includes('The grant was revoked')).length).toBeGreaterThanOrEqual(3)
  expect(logged.filter((l) => /used already/.test(l))).toEqual([])
}

describe('the MCP SDK against latchkey', () => {
  beforeAll(() => {
    env.server.clock.now = Date.now()
  })
  afterAll(() => expect(env.server.logs.filter((l) => l.startsWith('error'))).toEqual([]))

  it('with a client ID metadata document: the client_id is the document’s URL, fetched by the server', async () => {
    const { docs, callback } = env.server
    const clientId = docs.url('/mcp-client.json')
    docs.routes.set('/mcp-client.json', serveJson({ client_id: clientId, client_name: 'SDK Test Client', redirect_uris: [callback], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }))
    const provider = new TestProvider(callback, clientId)
    await run(provider)
    expect(provider.info!.client_id).toBe(clientId)
    expect(docs.hits.get('/mcp-client.json')).toBeGreaterThanOrEqual(1)
  })

  it('with dynamic client registration: the SDK registers once and uses the id it got', async () => {
    const provider = new TestProvider(env.server.callback)
    await run(provider)
    expect(provider.info!.client_id).toMatch(/^lkc_/)
    expect(provider.registered).toBe(1)
  })
})
