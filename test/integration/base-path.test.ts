/**
 * A client whose `basePath` is not where the server's routes answer meets something that is not
 * latchkey: a dev server's index.html (200), a plain 404, a JSON 404 of another API. The SDK
 * says so (`NotLatchkey`, and once on the console: check that the basePaths match and that the
 * routes are mounted or proxied there), where latchkey's own answers keep their codes and a
 * proxy's 5xx stays `ServerError`. A real server: latchkey under /auth, the rest an app's.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { createAuthClient } from '../../src/client/create-auth-client.js'
import type { AuthClientError } from '../../src/client/errors.js'
import { request } from '../../src/client/request.js'
import { toNodeHandler } from '../../src/node/index.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/index.js'
import { testSecret } from '../support/server.js'
import { pageAt } from '../client/support/browser-fakes.js'

let server: Server
let url: string
beforeAll(async () => {
  let auth: ReturnType<typeof toNodeHandler>
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path.startsWith('/auth/')) return auth(req, res)
    if (path.startsWith('/plain/')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`Cannot GET ${path}`)
    if (path.startsWith('/rest/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}')
    if (path.startsWith('/down/')) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>')
    // A single-page app's dev server: every other path is its index.html.
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><div id="app"></div><script type="module" src="/src/main.ts"></script>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://localhost:${(server.address() as AddressInfo).port}`
  auth = toNodeHandler(Latchkey({ secret: testSecret, origin: url, adapter: MemoryAdapter(), providers: [Credentials({ authorize: async () => null })] }))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

let warnings: string[]
beforeEach(() => {
  warnings = pageAt(url)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: AuthClientError) => e)
const providersAt = (basePath: string) => failure(createAuthClient({ basePath, serviceWorker: false }).getProviders())

describe('a basePath where no latchkey answers', () => {
  it("the app's index.html (200): NotLatchkey, the fix in the message, on the console once", async () => {
    const error = await providersAt('/api/auth')
    expect(error?.code).toBe('NotLatchkey')
    expect(error?.message).toBe(
      `200 from ${url}/api/auth/providers is not latchkey's: no latchkey server answers at that URL. ` +
        "Check that the client's basePath matches the server's basePath (both default to /auth), and that the sign-in routes are mounted " +
        'at that path, or proxied there by the server that serves this page (docs/client.md#errors).',
    )
    expect(await failure(createAuthClient({ basePath: '/api/auth', serviceWorker: false }).getCsrfToken())).toMatchObject({ code: 'NotLatchkey' })
    // The page may ask again and again: the console says it once.
    expect(warnings).toEqual([`latchkey: ${error?.message}`])
  })

  it('a plain 404 and a JSON 404 of another API: NotLatchkey', async () => {
    expect(await providersAt('/plain')).toMatchObject({ code: 'NotLatchkey', message: expect.stringContaining(`404 from ${url}/plain/providers is not latchkey's`) })
    expect(await providersAt('/rest')).toMatchObject({ code: 'NotLatchkey', message: expect.stringContaining("basePath matches the server's basePath") })
  })

  it("a proxy's 502 page stays ServerError, and says so", async () => {
    expect(await providersAt('/down')).toMatchObject({ code: 'ServerError', message: `502 from ${url}/down/providers is not JSON: the server, or a proxy in front of it, failed` })
  })

  it("latchkey's own answers keep their codes: its 404 is UnknownAction, and the right basePath works", async () => {
    expect(await failure(request(`${url}/auth/nothing-here`))).toMatchObject({ code: 'UnknownAction' })
    expect(Object.keys(await createAuthClient({ basePath: '/auth', serviceWorker: false }).getProviders())).toEqual(['credentials'])
  })
})
