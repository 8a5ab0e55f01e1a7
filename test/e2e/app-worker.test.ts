/**
 * latchkey beside the app's own service worker (a PWA's, with an offline page): included in it
 * through importScripts or an ESM import, the app keeps its worker and its offline page and the
 * session features run in that worker; asked to register its own worker where the app's is,
 * latchkey registers nothing and says why; its own worker observes page loads without answering them.
 */
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAndServer, openPage, sendSignInEmail, signInWithForm, statusOf, userName } from './helpers.js'

/** The Workbox worker of docs/service-worker.md, bundled as injectManifest would (latchkey/sw from the package's exports). */
async function buildWorkboxWorker(): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'fixtures/workbox-sw.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"', 'self.__WB_MANIFEST': '[{"url":"/offline.html","revision":"1"}]' },
  })
  return result.outputFiles[0].text
}

const env = browserAndServer(async () => ({ scripts: { '/workbox-sw.js': await buildWorkboxWorker() } }))

const controllerScript = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)
const registrations = (page: Page) => page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.map((x) => (x.active ?? x.waiting ?? x.installing)?.scriptURL)))
const engineChunkLoaded = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /chunks\/session-engine/.test(e.name)))

/** Asks for a sign-in link through the email form; answers the link. */
async function requestLink(page: Page, email: string): Promise<string> {
  const sent = env.server.outbox.length
  await sendSignInEmail(page, email)
  await expect.poll(() => env.server.outbox.length).toBe(sent + 1)
  return env.server.outbox.at(-1)!.url
}

/** Offline, a page load shows the app's offline page, served by the app's worker. */
async function expectOfflinePage(page: Page) {
  await page.context().setOffline(true)
  await page.reload()
  expect(await page.locator('h1').textContent()).toBe("The app's offline page")
  await page.context().setOffline(false)
}

describe.each([
  ['a classic worker, importScripts', '/app-sw.js?latchkey'],
  ['a module worker, import from latchkey/sw', '/app-sw.mjs?latchkey'],
  ['Workbox, bundled with latchkey/sw', '/workbox-sw.js'],
])("the app's own worker with latchkey included (%s)", (_name, script) => {
  test('keeps its offline page; sign-in, a link sign-in in another tab and sign-out run through it', async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/?appsw=' + encodeURIComponent(script))
    expect(await controllerScript(page)).toBe(env.server.url + script)
    expect(await page.evaluate(() => window.client.workerRegistration)).toEqual({ status: 'off' })
    // The first load ran before the worker took control: load again under it.
    await page.reload()
    await page.waitForFunction(() => window.ready === true)

    const passed = page.waitForResponse((r) => r.url().endsWith('/auth/callback/credentials'))
    await signInWithForm(page, 'pwa')
    await expect.poll(() => userName(page).textContent()).toBe('pwa')
    // latchkey's listener answered the sign-in request: it saw it pass.
    expect((await passed).fromServiceWorker()).toBe(true)
    // The worker keeps the session: the page never loaded its own engine.
    expect(await engineChunkLoaded(page)).toBe(false)

    // A sign-in by navigation (an emailed link) in another tab reaches this one through the worker.
    await page.evaluate(() => window.client.signOut({ redirect: false }))
    await expect.poll(() => statusOf(page)).toBe('unauthenticated')
    const link = await requestLink(page, 'pwa.link@example.com')
    const other = await context.newPage()
    await other.goto(link)
    await expect.poll(() => userName(page).textContent()).toBe('pwa.link@example.com')
    expect(await engineChunkLoaded(page)).toBe(false)

    await expectOfflinePage(page)
    await page.reload()
    await page.waitForFunction(() => window.ready === true)
    await expect.poll(() => userName(page).textContent()).toBe('pwa.link@example.com')
    expect(await registrations(page)).toEqual([env.server.url + script])
    await context.close()
  })
})

describe("latchkey asked to register its own worker where the app's worker is", () => {
  test('registers nothing, says why (console and client.workerRegistration), and sessions work in the page', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    const warnings: string[] = []
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
    await page.goto(env.server.url + '/?appsw=/app-sw.js&sw=/latchkey-sw.js')
    await page.waitForFunction(() => window.ready === true)
    const result = await page.evaluate(() => window.client.workerRegistration)
    expect(result.status).toBe('skipped')
    expect(result.message).toContain(`${env.server.url}/app-sw.js is the service worker at ${env.server.url}/`)
    expect(result.message).toContain("importScripts('/latchkey-sw-import.js')")
    expect(warnings).toContain(result.message)

    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.reload()
    await page.waitForFunction(() => window.ready === true)
    expect(await controllerScript(page)).toBe(env.server.url + '/app-sw.js')
    expect((await page.evaluate(() => window.client.workerRegistration)).status).toBe('skipped')
    await signInWithForm(page, 'own')
    await expect.poll(() => userName(page).textContent()).toBe('own')
    // The app's worker knows nothing of latchkey: the page keeps the session itself.
    expect(await engineChunkLoaded(page)).toBe(true)

    await expectOfflinePage(page)
    await page.reload()
    await expect.poll(() => userName(page).textContent()).toBe('own')
    expect(await registrations(page)).toEqual([env.server.url + '/app-sw.js'])
    await context.close()
  })
})

test("the drop-in script with no data-service-worker registers nothing: the app's worker stays", async () => {
  const context = await env.browser.newContext()
  const app = await openPage(context, env.server.url + '/?appsw=/app-sw.js')
  expect(await controllerScript(app)).toBe(env.server.url + '/app-sw.js')
  const page = await context.newPage()
  await page.goto(env.server.url + '/drop-in.html?default')
  expect(await page.evaluate(() => (window as any).Latchkey.client.workerRegistration)).toEqual({ status: 'off' })
  await signInWithForm(page, 'plain')
  await expect.poll(() => userName(page).textContent()).toBe('plain')
  expect(await registrations(page)).toEqual([env.server.url + '/app-sw.js'])
  await expectOfflinePage(page)
  await context.close()
})

describe("latchkey's own worker", () => {
  test('observes page loads without answering them: offline, the browser says so, not the worker', async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/')
    expect(await controllerScript(page)).toBe(env.server.url + '/latchkey-sw.js?base=%2Fauth')
    const response = await page.reload()
    expect(response!.fromServiceWorker()).toBe(false)
    await context.setOffline(true)
    await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/)
    await context.close()
  })
})

describe('no worker', () => {
  test('a page load that signed in (an emailed link) reads the session again, though the record was not due', async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/?nosw', { controlled: false })
    await expect.poll(() => statusOf(page)).toBe('unauthenticated')
    // The link leads back to the page with no worker to see it pass.
    const link = new URL(await requestLink(page, 'nosw.link@example.com'))
    link.searchParams.set('callbackUrl', env.server.url + '/?nosw')
    await page.goto(link.href)
    await page.waitForFunction(() => window.ready === true)
    await expect.poll(() => userName(page).textContent()).toBe('nosw.link@example.com')
    await context.close()
  })
})
