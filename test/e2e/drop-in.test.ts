/** The drop-in script: a plain HTML page with one <script src="/latchkey.iife.js">, no build step, and its passkey part. */
import { expect, test } from 'vitest'
import { openWithAuthenticator } from '../webauthn/support/browser.js'
import { browserAndServer, continueAs, signInWithForm, userName } from './helpers.js'

const env = browserAndServer()

test.each([
  ['with the worker', '', true],
  ['without a worker (data-service-worker="false")', '?nosw', false],
])('the drop-in page signs in and out with one global and the components, %s', async (_name, query, controlled) => {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(env.server.url + '/drop-in.html' + query)
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

test('the passkey part: a second script tag adds Latchkey.client.passkey, and the passkey button signs in', async () => {
  const { page } = await openWithAuthenticator(env.browser, env.server.url + '/drop-in.html?passkey&nosw', { waitForReady: false })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // Still one global: the passkey part adds to the drop-in's.
  expect(await page.evaluate(() => Object.keys(window).filter((k) => /latchkey/i.test(k)))).toEqual(['Latchkey'])
  expect(await page.evaluate(() => Object.keys((window as any).Latchkey).sort())).toEqual(['AuthClientError', 'PasskeyError', 'client', 'createAuthClient', 'defineElements', 'passkey'])
  const registered = await page.evaluate(async () => {
    const { client } = (window as any).Latchkey
    await client.passkey.register({ email: 'drop.passkey@example.com' })
    await client.signOut({ redirect: false })
    return client.status
  })
  expect(registered).toBe('unauthenticated')
  await continueAs(page, 'drop.passkey@example.com')
  await page.locator('latchkey-signin button[part~="passkey"]').click()
  await expect.poll(() => userName(page).textContent()).toBe('drop.passkey@example.com')
  expect(await page.locator('latchkey-signin input[name="username"]').getAttribute('autocomplete')).toBe('username webauthn')
  expect(errors).toEqual([])
  await page.context().close()
})

test('the passkey part alone says what it needs', async () => {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // The ESM test page: no drop-in global to attach to.
  await page.goto(env.server.url + '/?nosw')
  await page.addScriptTag({ url: '/latchkey-passkey.iife.js' })
  await expect.poll(() => errors.join()).toMatch(/load latchkey\.iife\.js first/)
  await context.close()
})
