/** The drop-in script: a plain HTML page with one <script src="/latchkey.iife.js">, no build step. */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Browser } from 'playwright-core'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { launchBrowser } from '../support/browser.js'
import { ensureBuilt } from './ensure-built.js'
import { signInWithForm, userName } from './helpers.js'

let browser: Browser
let server: AppServer

beforeAll(async () => {
  await ensureBuilt()
  ;[browser, server] = await Promise.all([launchBrowser(), startAppServer()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

test.each([
  ['with the worker', '', true],
  ['without a worker (data-service-worker="false")', '?nosw', false],
])('the drop-in page signs in and out with one global and the components, %s', async (_name, query, controlled) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(server.url + '/drop-in.html' + query)
  expect(await page.evaluate(() => Object.keys((window as any).Latchkey).sort())).toEqual(['AuthClientError', 'client', 'createAuthClient', 'defineElements'])
  expect(await page.evaluate(() => Object.keys(window).filter((k) => /latchkey/i.test(k)))).toEqual(['Latchkey'])
  await expect.poll(() => page.locator('latchkey-signin button[data-provider="acme"]').textContent()).toBe('Sign in with Acme')
  await signInWithForm(page, 'drop' + query.length)
  await expect.poll(() => userName(page).textContent()).toBe('drop' + query.length)
  expect(await page.evaluate(() => (window as any).Latchkey.client.status)).toBe('authenticated')
  await page.reload()
  await expect.poll(() => userName(page).textContent()).toBe('drop' + query.length)
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(controlled)
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => userName(page).count()).toBe(0)
  expect(errors).toEqual([])
  await context.close()
})
