/**
 * latchkey's worker script answered by something else (an app's catch-all HTML route, a 404):
 * the client says in the console which URL and what the server answered there, with the fix, and
 * the page keeps the session itself, so signing in still works. In Chromium against the test app.
 */
import { describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAndServer, signInWithForm, userName } from './helpers.js'

// A single-page app's fallback route, answering its HTML at the worker's exact path.
const started = browserAndServer({ pages: { '/latchkey-sw.js': '<!doctype html><title>The app</title><div id="root"></div>' } })

/** The console's warnings, collected from the page's first line on. */
function warningsOf(page: Page): string[] {
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  return warnings
}

const engineChunkLoaded = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /chunks\/session-engine/.test(e.name)))

describe('the worker registration fails', () => {
  test('HTML at the worker path: the warning names the URL and the MIME type, and the page signs in without the worker', async () => {
    const context = await started.browser.newContext()
    const page = await context.newPage()
    const warnings = warningsOf(page)
    await page.goto(started.server.url + '/')
    await page.waitForFunction(() => window.ready === true)
    const result = await page.evaluate(() => window.client.workerRegistration)
    const expected =
      'latchkey: /latchkey-sw.js?base=%2Fauth could not be registered: the server answered 200 text/html, a service worker must be served as JavaScript; ' +
      'serve node_modules/latchkey/dist/latchkey-sw.js there or use latchkey/vite'
    expect(result).toEqual({ status: 'failed', message: expected })
    expect(warnings).toContain(expected)
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0)

    await signInWithForm(page, 'fallback')
    await expect.poll(() => userName(page).textContent()).toBe('fallback')
    // The page's own engine keeps the session: its chunk was loaded.
    expect(await engineChunkLoaded(page)).toBe(true)
    await context.close()
  })

  test('nothing at the worker path: the warning gives the status', async () => {
    const context = await started.browser.newContext()
    const page = await context.newPage()
    const warnings = warningsOf(page)
    await page.goto(started.server.url + '/?sw=/missing-sw.js')
    await page.waitForFunction(() => window.ready === true)
    const { status, message } = await page.evaluate(() => window.client.workerRegistration)
    expect(status).toBe('failed')
    expect(message).toBe('latchkey: /missing-sw.js?base=%2Fauth could not be registered: the server answered 404 text/html; serve node_modules/latchkey/dist/latchkey-sw.js there or use latchkey/vite')
    expect(warnings).toContain(message)
    await context.close()
  })
})
