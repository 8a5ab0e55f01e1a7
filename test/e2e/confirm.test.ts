/**
 * "Confirm it's you" in Chromium: a stale session gets 403 SessionNotFresh from an app route
 * guarded by requireFreshSession; `<latchkey-signin confirm>` signs the same user in again and
 * the route answers; a sign-in as anyone else there is refused and changes nothing.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf } from './helpers.js'

const env = browserAndServer({ maxAge: 7 * 86400, updateAge: 86400 })

test('a stale session confirms with the same user; another user is refused', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  await signInWithForm(page, 'conf')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  const fresh = () => page.evaluate(async () => (await fetch('/api/fresh')).status)
  expect(await fresh()).toBe(200)
  env.server.advance(3600_000 + 1000)
  expect(await fresh()).toBe(403)

  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<latchkey-signin confirm id="confirm"></latchkey-signin>')
    ;(window as unknown as { confirmed: number }).confirmed = 0
    document.addEventListener('latchkey-confirmed', () => (window as unknown as { confirmed: number }).confirmed++)
  })
  const form = page.locator('#confirm form[part~="credentials-form"]')
  await expect.poll(() => page.locator('#confirm form[part~="identifier-form"]').isVisible()).toBe(true)
  await expect.poll(() => page.locator('#confirm [part="heading"]').textContent()).toMatch(/Confirm it's you/)

  await signInWithForm(page, 'intruder', 'secret', '#confirm')
  await expect.poll(() => page.locator('#confirm [part="error"]').isVisible()).toBe(true)
  expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('conf@example.com')
  expect(await fresh()).toBe(403)

  await signInWithForm(page, 'conf', 'secret', '#confirm')
  await expect.poll(() => page.evaluate(() => (window as unknown as { confirmed: number }).confirmed)).toBe(1)
  expect(await fresh()).toBe(200)
  expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('conf@example.com')
  expect(await form.locator('input[name="password"]').inputValue()).toBe('')
  await context.close()
})
