/**
 * Clients the configuration does not list (src/plugins/oauth-server): client ID metadata
 * documents (an https client_id fetched from a local https server, test/plugins/oauth-server-documents.ts)
 * and dynamic client registration (RFC 7591). Each way runs the flow once, then is attacked:
 * documents on private addresses, huge, slow, redirecting, lying about their client_id, not JSON;
 * registrations with bad redirect URIs or metadata, closed, without the initial access token,
 * too many. docs/security.md names these tests.
 */
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { oauthServer, type OAuthServerOptions } from 'latchkey/plugins/oauth-server'
import { isPublicAddress } from '../../src/plugins/oauth-server/safe-fetch.js'
import { secretHash } from '../../src/plugins/oauth-server/options.js'
import { authorizationUrl, authorizeInBrowser, authServer, browser, mcp, origin, pkce, type AuthServer } from './oauth-server-support.js'
import { documentServer, serveJson, type DocumentServer } from './oauth-server-documents.js'

// Names that resolve as the attacks need, without a DNS server: the rest resolve as usual.
const fakeNames: Record<string, Array<{ address: string; family: number }>> = {
  'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }],
  'mapped.example': [{ address: '::ffff:169.254.169.254', family: 6 }],
}
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>()
  const lookup = (name: string, options: object) => (fakeNames[name] ? Promise.resolve(fakeNames[name]) : real.lookup(name, options as never))
  return { ...real, lookup, default: { ...real, lookup } }
})

let docs: DocumentServer
beforeAll(async () => {
  docs = await documentServer()
})
afterAll(() => docs.close())

const redirectUri = 'http://127.0.0.1:43117/callback'
const noErrors = (server: AuthServer) => expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])

/** A server that takes documents from the test server (loopback allowed, its certificate trusted). */
function documentsServer(extra: Partial<NonNullable<Exclude<OAuthServerOptions['clientIdMetadataDocuments'], boolean>>> = {}) {
  return authServer({ clientIdMetadataDocuments: { timeoutMs: 1000, ...extra, unsafeTesting: { allowLoopback: true, ca: docs.ca } } })
}

/** A document at `path` for a client whose id is its URL. */
function publish(path: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}): string {
  const clientId = docs.url(path)
  docs.routes.set(path, serveJson({ client_id: clientId, client_name: 'Doc Client', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', ...fields }, headers))
  return clientId
}

/** The authorization request's answer for `clientId`: status, page text, location. */
async function authorizeAs(server: AuthServer, clientId: string, params: Record<string, string> = {}) {
  const jar = await browser(server)
  const response = await jar.get(authorizationUrl(await server.as(), { client_id: clientId, code_challenge: (await pkce()).challenge, ...params }))
  return { status: response.status, text: await response.text(), location: response.headers.get('location') }
}

describe('client ID metadata documents', () => {
  it('the metadata says whether documents and registration are taken; both off by default', async () => {
    const plain = await authServer().as()
    expect(plain.client_id_metadata_document_supported).toBeUndefined()
    expect(plain.registration_endpoint).toBeUndefined()
    const both = await authServer({ clientIdMetadataDocuments: true, registration: { open: true } }).as()
    expect(both.client_id_metadata_document_supported).toBe(true)
    expect(both.registration_endpoint).toBe(`${origin}/auth/oauth2/register`)
  })

  it('an https client_id is fetched once: consent shows its name and host, the code goes to a listed redirect URI, the token names the URL as client', async () => {
    const server = documentsServer()
    const clientId = publish('/flow.json', { client_name: 'Doc Client', logo_uri: 'https://docs.example/logo.png' })
    const as = await server.as()
    const jar = await browser(server)
    const { verifier, challenge } = await pkce()
    const start = await jar.get(authorizationUrl(as, { client_id: clientId, code_challenge: challenge }))
    expect(start.status).toBe(302)
    const consent = await jar.get(start.headers.get('location')!)
    const page = await consent.text()
    expect(page).toContain(`Doc Client (127.0.0.1:${docs.port})`)
    expect(page).toContain('https://docs.example/logo.png')
    const back = await authorizeInBrowser(jar, authorizationUrl(as, { client_id: clientId, code_challenge: challenge }))
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' }
    const params = oauth.validateAuthResponse(as, client, back, 'st-1')
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, server.options))
    const verified = await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } }), { resource: mcp })
    expect(verified).toMatchObject({ clientId, sub: 'user-ada' })
    // Authorize twice, consent, token: one fetch, the rest from the cache.
    expect(docs.hits.get('/flow.json')).toBe(1)
    noErrors(server)
  })

  it('the redirect_uri must be one the document lists, compared whole; refused on a page, never redirected to', async () => {
    const server = documentsServer()
    const clientId = publish('/redirects.json', { redirect_uris: ['https://doc.example/cb'] })
    for (const uri of ['https://doc.example/cb/', 'https://evil.example/cb', 'https://doc.example/cb#x', redirectUri]) {
      const answer = await authorizeAs(server, clientId, { redirect_uri: uri })
      expect(answer.status, uri).toBe(400)
      expect(answer.location, uri).toBeNull()
    }
    expect((await authorizeAs(server, clientId, { redirect_uri: 'https://doc.example/cb' })).status).toBe(302)
    noErrors(server)
  })

  it('documents are kept as Cache-Control says, within bounds (default 60 s to a day); a refusal is kept 30 s', async () => {
    const server = documentsServer()
    const short = publish('/no-store.json', {}, { 'cache-control': 'no-store' })
    const long = publish('/long.json', {}, { 'cache-control': 'public, max-age=99999999' })
    const plain = publish('/plain.json', {}, { 'cache-control': 'max-age=120' })
    for (const id of [short, long, plain]) expect((await authorizeAs(server, id)).status).toBe(302)
    server.clock.now += 59_000
    for (const id of [short, long, plain]) await authorizeAs(server, id)
    expect([docs.hits.get('/no-store.json'), docs.hits.get('/long.json'), docs.hits.get('/plain.json')]).toEqual([1, 1, 1])
    server.clock.now += 2_000 // 61 s: no-store's minimum is over
    for (const id of [short, long, plain]) await authorizeAs(server, id)
    expect([docs.hits.get('/no-store.json'), docs.hits.get('/long.json'), docs.hits.get('/plain.json')]).toEqual([2, 1, 1])
    server.clock.now += 86_400_000 // a day: the longest any document is kept
    await authorizeAs(server, long)
    expect(docs.hits.get('/long.json')).toBe(2)
    // A refusal (here a 404) is remembered for 30 s, then asked again.
    const missing = docs.url('/missing.json')
    expect((await authorizeAs(server, missing)).text).toContain('answered 404')
    await authorizeAs(server, missing)
    expect(docs.hits.get('/missing.json')).toBe(1)
    server.clock.now += 31_000
    await authorizeAs(server, missing)
    expect(docs.hits.get('/missing.json')).toBe(2)
    noErrors(server)
  })

  it('at the token endpoint an unusable document is invalid_client (401), never a 500', async () => {
    const server = documentsServer()
    const response = await server.handler(
      new Request(`${origin}/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: docs.url('/nothing.json') }) }),
    )
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: 'invalid_client' })
    noErrors(server)
  })
})

describe('client ID metadata documents under attack', () => {
  it('a client_id on a private, loopback, link-local or IPv4-mapped address, or a host resolving to one, is never fetched', async () => {
    const server = authServer({ clientIdMetadataDocuments: { unsafeTesting: undefined } })
    docs.routes.set('/private.json', serveJson({}))
    const port = docs.port
    const targets = [
      `https://127.0.0.1:${port}/private.json`,
      `https://localhost:${port}/private.json`,
      `https://[::1]:${port}/private.json`,
      `https://[::ffff:7f00:1]:${port}/private.json`,
      'https://10.1.2.3/client.json',
      'https://172.16.0.1/client.json',
      'https://192.168.1.1/client.json',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:a9fe:a9fe]/client.json',
      'https://[fe80::1]/client.json',
      'https://[fd00::1]/client.json',
      'https://0.0.0.0/client.json',
    ]
    for (const target of targets) {
      const answer = await authorizeAs(server, target)
      expect(answer.status, target).toBe(400)
      expect(answer.location, target).toBeNull()
      expect(answer.text, target).toContain('resolves to a private or reserved address')
    }
    // Other spellings of those addresses are not the URL itself (the URL parser rewrites them): no document URL, no fetch.
    for (const target of [`https://2130706433:${port}/private.json`, `https://0x7f.1:${port}/private.json`, `https://[::ffff:127.0.0.1]:${port}/private.json`, 'https://[::ffff:169.254.169.254]/client.json']) {
      expect((await authorizeAs(server, target)).text, target).toContain('client_id names no registered client')
    }
    expect(docs.hits.get('/private.json')).toBeUndefined()
    noErrors(server)
  })

  it('a host with one private address among public ones, or resolving to an IPv4-mapped metadata address, is refused before any connection', async () => {
    const server = authServer({ clientIdMetadataDocuments: true })
    for (const target of ['https://mixed.example/client.json', 'https://mapped.example/client.json']) {
      const answer = await authorizeAs(server, target)
      expect(answer.status, target).toBe(400)
      expect(answer.text, target).toContain('resolves to a private or reserved address')
    }
    noErrors(server)
  })

  it('loopback allowed for tests still refuses every other private range', () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '192.168.0.1', '100.64.0.1', '::ffff:10.0.0.1', 'fd00::1', 'fe80::1', '64:ff9b::a00:1', '2002:a00:1::1', '224.0.0.1', '255.255.255.255']) {
      expect(isPublicAddress(address, true), address).toBe(false)
    }
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      expect(isPublicAddress(address, true), address).toBe(true)
      expect(isPublicAddress(address, false), address).toBe(false)
    }
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:93.184.216.34', '8.8.8.8']) expect(isPublicAddress(address), address).toBe(true)
    expect(isPublicAddress('not-an-address')).toBe(false)
  })

  it('huge, slow, redirecting, lying, not JSON, or carrying a secret: refused on a page with the reason, the flow not started', async () => {
    const server = documentsServer({ timeoutMs: 300 })
    const pending: Array<() => void> = []
    const cases: Array<[string, (url: string) => import('./oauth-server-documents.js').DocumentHandler, string]> = [
      ['/huge.json', (url) => serveJson({ client_id: url, redirect_uris: ['http://127.0.0.1/callback'], padding: 'x'.repeat(6000) }), 'larger than 5120 bytes'],
      ['/huge-chunked.json', () => (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        for (let i = 0; i < 8; i++) res.write('x'.repeat(1000))
        res.end()
      }, 'larger than 5120 bytes'],
      ['/slow.json', () => (_, res) => void pending.push(() => res.end()), 'did not answer within 300 ms'],
      ['/slow-body.json', () => (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{')
        pending.push(() => res.end())
      }, 'did not answer within 300 ms'],
      ['/redirect.json', () => (_, res) => void res.writeHead(302, { location: docs.url('/flow-target.json') }).end(), 'redirects are not followed'],
      ['/liar.json', () => serveJson({ client_id: 'https://trusted.example/client.json', redirect_uris: ['http://127.0.0.1/callback'] }), 'names another client_id'],
      ['/not-json.json', () => serveJson('<html>hello</html>'), 'is not JSON'],
      ['/html.json', () => (_, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('{}'), 'not served as application/json'],
      ['/array.json', () => serveJson('[1,2]'), 'not a JSON object'],
      ['/secret.json', (url) => serveJson({ client_id: url, client_secret: 's', redirect_uris: ['http://127.0.0.1/callback'] }), 'must not contain client_secret'],
      ['/basic.json', (url) => serveJson({ client_id: url, token_endpoint_auth_method: 'client_secret_basic', redirect_uris: ['http://127.0.0.1/callback'] }), 'token_endpoint_auth_method must be none'],
      ['/js.json', (url) => serveJson({ client_id: url, redirect_uris: ['javascript:alert(1)'] }), 'redirect_uris[0] cannot use javascript:'],
      ['/no-redirects.json', (url) => serveJson({ client_id: url }), 'redirect_uris must list'],
      ['/scope.json', (url) => serveJson({ client_id: url, scope: 'admin', redirect_uris: ['http://127.0.0.1/callback'] }), 'which this server does not offer'],
    ]
    docs.routes.set('/flow-target.json', serveJson({}))
    for (const [path, handler, reason] of cases) {
      docs.routes.set(path, handler(docs.url(path)))
      const answer = await authorizeAs(server, docs.url(path))
      expect(answer.status, path).toBe(400)
      expect(answer.location, path).toBeNull()
      expect(answer.text.replace(/&#39;|&quot;/g, ''), path).toContain(reason)
    }
    for (const end of pending) end()
    expect(docs.hits.get('/flow-target.json')).toBeUndefined()
    noErrors(server)
  })

  it('a client_id that is no document URL (http, no path, a fragment, dot segments, credentials) is an unknown client, not fetched', async () => {
    const server = documentsServer()
    for (const id of [`http://127.0.0.1:${docs.port}/a.json`, `https://127.0.0.1:${docs.port}/`, `https://127.0.0.1:${docs.port}/a.json#x`, `https://127.0.0.1:${docs.port}/x/../a.json`, `https://u:p@127.0.0.1:${docs.port}/a.json`]) {
      const answer = await authorizeAs(server, id)
      expect(answer.status, id).toBe(400)
      expect(answer.text, id).toContain('client_id names no registered client')
    }
    expect(docs.hits.get('/a.json')).toBeUndefined()
  })

  it('documents off: an https client_id is an unknown client and nothing is fetched', async () => {
    const server = authServer()
    const clientId = publish('/off.json')
    expect((await authorizeAs(server, clientId)).text).toContain('client_id names no registered client')
    expect(docs.hits.get('/off.json')).toBeUndefined()
  })

  it('wrong options are refused at start-up with the fix', () => {
    const base = { clients: [], scopes: { a: 'A' }, resources: [mcp] }
    expect(() => oauthServer({ ...base, clientIdMetadataDocuments: { maxBytes: 0 } })).toThrow('clientIdMetadataDocuments.maxBytes must be a whole number from 1 to 65536')
    expect(() => oauthServer({ ...base, clientIdMetadataDocuments: { allowedHosts: ['Client.Example'] } })).toThrow('allowedHosts must be a list of lower-case host names')
    expect(() => oauthServer({ ...base, clientIdMetadataDocuments: { cacheSeconds: { min: 100, max: 10 } } })).toThrow('cacheSeconds.min must not be above cacheSeconds.max')
    expect(() => oauthServer({ ...base, clientIdMetadataDocuments: { unsafeTesting: { allowLoopback: false as true } } })).toThrow('unsafeTesting must be { allowLoopback: true, ca? }')
  })

  it('allowedHosts: a document on another host is refused without a fetch', async () => {
    const server = documentsServer({ allowedHosts: ['client.example'] })
    const clientId = publish('/elsewhere.json')
    expect((await authorizeAs(server, clientId)).text).toContain('not one this server accepts documents from')
    expect(docs.hits.get('/elsewhere.json')).toBeUndefined()
  })
})

async function registerClient(server: AuthServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await server.handler(new Request(`${origin}/auth/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }))
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
}

const nativeApp = { client_name: 'Native App', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }

describe('dynamic client registration (RFC 7591)', () => {
  it('off by default: 403 access_denied saying so, and nothing is stored', async () => {
    const server = authServer()
    const answer = await registerClient(server, nativeApp)
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({ error: 'access_denied', error_description: expect.stringContaining('Dynamic client registration is off on this server') })
    noErrors(server)
  })

  it('open: a public client registers (no secret), then runs the flow; consent marks its name unverified', async () => {
    const server = authServer({ registration: { open: true } })
    const answer = await registerClient(server, { ...nativeApp, scope: 'tools:read' })
    expect(answer.status).toBe(201)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const clientId = answer.body.client_id as string
    expect(clientId).toMatch(/^lkc_/)
    expect(answer.body).toMatchObject({ client_name: 'Native App', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], scope: 'tools:read' })
    expect(answer.body.client_secret).toBeUndefined()
    const as = await server.as()
    const jar = await browser(server)
    const { verifier, challenge } = await pkce()
    const start = await jar.get(authorizationUrl(as, { client_id: clientId, code_challenge: challenge }))
    expect(await (await jar.get(start.headers.get('location')!)).text()).toContain('Native App (unverified)')
    // A scope outside what it registered is refused.
    expect((await jar.get(authorizationUrl(as, { client_id: clientId, code_challenge: challenge, scope: 'tools:write' }))).headers.get('location')).toContain('error=invalid_scope')
    const back = await authorizeInBrowser(jar, authorizationUrl(as, { client_id: clientId, code_challenge: challenge }))
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' }
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), oauth.validateAuthResponse(as, client, back, 'st-1'), redirectUri, verifier, server.options))
    expect(tokens.refresh_token).toBeTruthy()
    noErrors(server)
  })

  it('a confidential client gets its secret once; the store keeps only its hash; a wrong secret is invalid_client', async () => {
    const server = authServer({ registration: { open: true } })
    const answer = await registerClient(server, { client_name: 'Web', redirect_uris: ['https://web.example/cb'], token_endpoint_auth_method: 'client_secret_basic' })
    expect(answer.status).toBe(201)
    const { client_id: clientId, client_secret: secret } = answer.body as { client_id: string; client_secret: string }
    expect(secret.length).toBeGreaterThanOrEqual(40)
    expect(answer.body.client_secret_expires_at).toBe(0)
    const stored = await (server.adapter as unknown as { getOAuthClient(id: string): Promise<unknown> }).getOAuthClient(clientId)
    expect(JSON.stringify(stored)).not.toContain(secret)
    expect(stored).toMatchObject({ client: { secretHash: secretHash(secret) } })
    const introspect = (password: string) =>
      server.handler(new Request(`${origin}/auth/oauth2/introspect`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${clientId}:${password}`)}` }, body: 'token=abc' }))
    expect(await (await introspect(secret)).json()).toEqual({ active: false })
    expect((await introspect(`${secret}x`)).status).toBe(401)
    noErrors(server)
  })

  it('bad redirect URIs and metadata: 400 invalid_redirect_uri or invalid_client_metadata naming the field, never a 500', async () => {
    const server = authServer({ registration: { open: true } })
    const redirects: Array<[unknown, string]> = [
      [['https://app.example/cb#frag'], 'must have no fragment'],
      [['http://app.example/cb'], 'uses http on a host that is not loopback'],
      [['javascript:alert(1)'], 'cannot use javascript:'],
      [['data:text/html,hi'], 'cannot use data:'],
      [['/relative'], 'must be an absolute URL'],
      [['https://user:pw@app.example/cb'], 'must carry no user name or password'],
      [[], 'redirect_uris must list'],
      ['https://app.example/cb', 'redirect_uris must be a list'],
    ]
    for (const [uris, reason] of redirects) {
      const answer = await registerClient(server, { ...nativeApp, redirect_uris: uris })
      expect(answer.status, JSON.stringify(uris)).toBe(400)
      expect(answer.body.error, JSON.stringify(uris)).toBe(reason.startsWith('redirect_uris must be') ? 'invalid_client_metadata' : 'invalid_redirect_uri')
      expect(answer.body.error_description, JSON.stringify(uris)).toContain(reason)
    }
    const metadata: Array<[unknown, string, string?]> = [
      [{ ...nativeApp, grant_types: ['client_credentials'] }, 'grant_types may list authorization_code and refresh_token only'],
      [{ ...nativeApp, grant_types: ['authorization_code', 'implicit'] }, 'grant_types may list'],
      [{ ...nativeApp, response_types: ['token'] }, 'response_types must be ["code"]'],
      [{ ...nativeApp, token_endpoint_auth_method: 'private_key_jwt' }, 'token_endpoint_auth_method must be none or client_secret_basic or client_secret_post'],
      [{ ...nativeApp, scope: 'tools:read admin' }, 'scope names "admin"'],
      [{ ...nativeApp, logo_uri: 'http://app.example/logo.png' }, 'logo_uri must be an https URL'],
      [{ ...nativeApp, client_name: 'x'.repeat(101) }, 'client_name must be a string of 1 to 100 characters'],
      [{ ...nativeApp, software_statement: 'eyJ...' }, 'Software statements are not accepted', 'invalid_software_statement'],
      ['[1]', 'got an array', 'invalid_request'],
      ['{not json', 'JSON', 'invalid_request'],
    ]
    for (const [body, reason, code = 'invalid_client_metadata'] of metadata) {
      const answer = await registerClient(server, body)
      expect(answer.status, reason).toBe(400)
      expect(answer.body.error, reason).toBe(code)
      expect(answer.body.error_description, reason).toContain(reason)
    }
    const form = await server.handler(new Request(`${origin}/auth/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'redirect_uris=https://a.example/cb' }))
    expect(form.status).toBe(400)
    expect(await form.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('application/json') })
    noErrors(server)
  })

  it('a registered client’s redirect URI at authorize must be one it registered, whole', async () => {
    const server = authServer({ registration: { open: true } })
    const { body } = await registerClient(server, { ...nativeApp, redirect_uris: ['https://app.example/cb'] })
    for (const uri of ['https://app.example/cb/', 'https://app.example/cb?x=1', 'https://evil.example/cb']) {
      const answer = await authorizeAs(server, body.client_id as string, { redirect_uri: uri })
      expect(answer.status, uri).toBe(400)
      expect(answer.location, uri).toBeNull()
    }
    expect((await authorizeAs(server, body.client_id as string, { redirect_uri: 'https://app.example/cb' })).status).toBe(302)
    // An id shaped like a registered one that was never issued is an unknown client.
    expect((await authorizeAs(server, 'lkc_never-issued')).text).toContain('client_id names no registered client')
  })

  it('with an initial access token: none or a wrong one is 401 invalid_token; the right one registers', async () => {
    const token = 'initial-access-token-'.padEnd(40, 'z')
    const server = authServer({ registration: { initialAccessToken: token } })
    for (const header of [undefined, `Bearer ${token}x`, `Basic ${btoa('a:b')}`, token]) {
      const answer = await registerClient(server, nativeApp, header ? { authorization: header } : {})
      expect(answer.status, header).toBe(401)
      expect(answer.body.error).toBe('invalid_token')
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    }
    expect((await registerClient(server, nativeApp, { authorization: `Bearer ${token}` })).status).toBe(201)
    expect(() => oauthServer({ clients: [], scopes: { a: 'A' }, resources: [mcp], registration: { initialAccessToken: 'short' } })).toThrow('initialAccessToken must be a string of at least 32 characters')
    expect(() => oauthServer({ clients: [], scopes: { a: 'A' }, resources: [mcp], registration: {} })).toThrow('must say open: true, or give an initialAccessToken')
  })

  it('registrations are counted per network address: the 21st in an hour is refused with 429', async () => {
    const server = authServer({ registration: { open: true } }, { rateLimit: { getClientAddress: () => '192.0.2.9' } })
    for (let i = 0; i < 20; i++) expect((await registerClient(server, nativeApp)).status).toBe(201)
    const refused = await registerClient(server, nativeApp)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('Too many client registrations from this network address') })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    server.clock.now += 3601_000
    expect((await registerClient(server, nativeApp)).status).toBe(201)
  })
})
