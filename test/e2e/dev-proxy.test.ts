/**
 * A dev server's proxy (as Vite's `'/auth': 'http://localhost:3000'`: the Host rewritten to the
 * target's) serves the page on its own port and forwards /auth to the API. With the server's
 * `origin` left at the API's URL, its providers' URLs lead the page to the API's origin, which
 * refuses it: the element says `origin` should be the page's URL (OriginMismatch), the console
 * names the page's origin, and the server's refusal of the preflight says the same. With `origin`
 * set to the page's URL, the same page signs in through the proxy.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AuthConfig } from '../../src/core/types.js'
import en from '../../src/locales/en/elements.js'
import { toNodeHandler } from '../../src/node/index.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { browserAndServer, signInWithForm, userName } from './helpers.js'

const pages = browserAndServer()

interface Running {
  url: string
  server: Server
}

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Running> {
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}` }
}

const close = (running: Running | undefined) => new Promise<void>((resolve) => (running ? running.server.close(() => resolve()) : resolve()))

/** Forwards the request to `target`, its Host made the target's (Vite's `changeOrigin`), every other header as sent. */
function forward(req: IncomingMessage, res: ServerResponse, target: string): void {
  const to = new URL(target)
  const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  upstream.on('error', () => res.writeHead(502).end())
  req.pipe(upstream)
}

let api: Running
let proxy: Running
const logs: string[] = []
/** The API's configuration: its `origin` is what each test sets. */
let configure: (origin: string) => void

beforeAll(async () => {
  let handler: ReturnType<typeof toNodeHandler> | undefined
  api = await listen((req, res) => handler!(req, res))
  configure = (origin) => {
    const config: AuthConfig = {
      secret: 'latchkey-dev-proxy-secret-0123456789',
      origin,
      adapter: MemoryAdapter(),
      logger: { error: (e) => void logs.push(`error ${e.message}`), warn: (m) => void logs.push(`warn ${m}`), debug: () => {} },
      providers: [
        Credentials({
          credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
          authorize: async ({ username, password }) => (password === 'secret' ? { id: `user-${username}`, name: String(username), email: `${username}@example.com` } : null),
        }),
      ],
    }
    handler = toNodeHandler(Latchkey(config))
  }
  // The dev server: /auth goes to the API, the rest (the page, its scripts) to the test app.
  proxy = await listen((req, res) => forward(req, res, (req.url ?? '/').startsWith('/auth') ? api.url : pages.server.url))
})
afterAll(async () => {
  await close(proxy)
  await close(api)
})

/** The test page on the proxy's origin, its client's basePath the default /auth; collects the console's warnings. */
async function openOnProxy(): Promise<{ page: Page; warnings: string[] }> {
  const page = await (await pages.browser.newContext()).newPage()
  const warnings: string[] = []
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())))
  await page.goto(`${proxy.url}/?nosw`)
  await page.waitForFunction(() => window.ready === true)
  return { page, warnings }
}

const errorOf = (page: Page) => page.locator('latchkey-signin [part="error"]')

describe('the page behind a dev proxy', () => {
  test("origin left at the API's URL: the element, the console and the server say origin should be the page's URL", async () => {
    configure(api.url)
    logs.length = 0
    const { page, warnings } = await openOnProxy()
    await signInWithForm(page, 'pat')
    await errorOf(page).waitFor({ state: 'visible' })
    expect(await errorOf(page).textContent()).toBe(en.OriginMismatch)
    expect(warnings.join('\n')).toContain(`This page reaches latchkey at ${proxy.url}/auth, on its own origin, but the server builds its URLs on ${api.url}`)
    expect(warnings.join('\n')).toContain(`set origin (or AUTH_URL) to '${proxy.url}', the page's URL`)
    // The API refused the page's preflight, and its log says why and what to set.
    expect(logs.join('\n')).toContain(`warn InvalidRequest: a preflight refused. Cross-origin calls are allowed only from ${api.url} and the configured trustedOrigins, and ${proxy.url} is neither.`)
    expect(logs.join('\n')).toContain(`set origin (or AUTH_URL) to ${proxy.url}, the page's URL`)
    await page.context().close()
  })

  test("origin set to the page's URL: the same page signs in through the proxy", async () => {
    configure(proxy.url)
    const { page } = await openOnProxy()
    await signInWithForm(page, 'pat')
    await expect.poll(() => userName(page).textContent()).toBe('pat')
    expect(await errorOf(page).isHidden()).toBe(true)
    await page.context().close()
  })
})
