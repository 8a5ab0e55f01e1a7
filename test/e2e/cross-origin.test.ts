/**
 * A frontend on one origin and the latchkey server on another of the same site (two ports of
 * localhost, as a Vite dev server beside an API server): with the page's origin in
 * `trustedOrigins`, the element signs in over CORS with credentials and lands back on the page;
 * without it, the element says the server refused this origin and what to configure, which it
 * tells apart from a server that is down and from a browser that is offline.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { toNodeHandler } from '../../src/node/index.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { browserAndServer, signInWithForm, userName } from './helpers.js'

const pages = browserAndServer()

interface Api {
  url: string
  close(): Promise<void>
}

/** A latchkey server alone on its own port of localhost; `trusted`: the origins it lets call it. */
async function startApi(trustedOrigins: string[]): Promise<Api> {
  let handler: ReturnType<typeof toNodeHandler> | undefined
  const server: Server = createServer((req, res) => handler!(req, res))
  await new Promise<void>((resolve) => server.listen(0, resolve))
  const url = `http://localhost:${(server.address() as AddressInfo).port}`
  const auth = Latchkey({
    secret: 'latchkey-cross-origin-secret-0123456789',
    origin: url,
    trustedOrigins,
    adapter: MemoryAdapter(),
    session: { strategy: 'database' },
    providers: [Credentials({ authorize: async ({ username, password }) => (password === 'secret' ? { id: `user-${username}`, name: String(username), email: `${username}@example.com` } : null) })],
  })
  handler = toNodeHandler(auth)
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** The test page with its client's basePath on `api`; collects the console's warnings. */
async function openAt(api: string): Promise<{ page: Page; warnings: string[] }> {
  const context = await pages.browser.newContext()
  const page = await context.newPage()
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  await page.goto(`${pages.server.url}/?base=${encodeURIComponent(api + '/auth')}`)
  await page.waitForFunction(() => window.ready === true)
  return { page, warnings }
}

const errorOf = (page: Page) => page.locator('latchkey-signin [part="error"]')

describe('the server on another origin of the same site', () => {
  let trusting: Api
  let refusing: Api
  beforeAll(async () => {
    ;[trusting, refusing] = await Promise.all([startApi([pages.server.url]), startApi([])])
  })
  afterAll(async () => {
    await trusting?.close()
    await refusing?.close()
  })

  test('trusting the page: the element signs in over CORS and lands back on the page', async () => {
    const { page, warnings } = await openAt(trusting.url)
    await signInWithForm(page, 'cora')
    await expect.poll(() => userName(page).textContent()).toBe('cora')
    // The URL to go on to is the page (a trusted origin), not the API's origin.
    const result = await page.evaluate(() => window.client.signIn('credentials', { username: 'cora', password: 'secret', callbackUrl: `${location.origin}/after`, redirect: false }))
    expect(result).toMatchObject({ ok: true, url: `${pages.server.url}/after` })
    expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('cora@example.com')
    // The session cookie is the API's, sent back with credentials on each read.
    const cookies = await page.context().cookies(trusting.url)
    expect(cookies.find((c) => /session-token/.test(c.name))).toMatchObject({ sameSite: 'Lax', httpOnly: true })
    // No worker was registered for a basePath on another origin: the page keeps the session.
    expect(await page.evaluate(() => window.client.workerRegistration)).toEqual({ status: 'off' })
    expect(warnings.join('\n')).toMatch(/latchkey-sw\.js was not registered: basePath .* is on another origin/)
    await page.context().close()
  })

  test('not trusting the page: the element says the server refused this origin and names trustedOrigins', async () => {
    const { page, warnings } = await openAt(refusing.url)
    await errorOf(page).waitFor({ state: 'visible' })
    expect(await errorOf(page).textContent()).toMatch(/refused this page's origin\. Add it to the server's trustedOrigins/)
    // The console names both origins, for the developer.
    expect(warnings.join('\n')).toContain(`${refusing.url} answered, but did not let this page (${pages.server.url}) read the answer. Add '${pages.server.url}' to trustedOrigins`)
    const code = await page.evaluate(() => window.client.getProviders().then(() => 'none', (e) => e.code))
    expect(code).toBe('CrossOriginRefused')
    await page.context().close()
  })

  test('a server that is down is a network failure, not a refused origin', async () => {
    const gone = await startApi([])
    await gone.close()
    const { page } = await openAt(gone.url)
    await errorOf(page).waitFor({ state: 'visible' })
    expect(await errorOf(page).textContent()).toMatch(/Could not reach the server/)
    expect(await page.evaluate(() => window.client.getProviders().then(() => 'none', (e) => e.code))).toBe('NetworkError')
    await page.context().close()
  })

  test('an offline browser is a network failure, even for a server that would refuse the origin', async () => {
    const { page } = await openAt(refusing.url)
    await errorOf(page).waitFor({ state: 'visible' })
    await page.context().setOffline(true)
    expect(await page.evaluate(() => window.client.getProviders().then(() => 'none', (e) => e.code))).toBe('NetworkError')
    await page.context().close()
  })
})
