/**
 * An email link in Chromium: asked for in one browser, opened in another (another device, or a
 * mail scanner's fetch before it). The other browser gets the link's page, and only its button
 * signs that browser in, with the browser's own Sec-Fetch-Site and Origin on the post; the
 * browser that asked stays signed out until it is told.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, statusOf, userName } from './helpers.js'

const started = browserAndServer()

test('a link opened on another device shows its page, and the click signs that device in', async () => {
  const { browser, server } = started
  const laptop = await browser.newContext()
  const asking = await openPage(laptop, server.url + '/')
  await asking.locator('latchkey-signin form[part~="email-form"] input[name="email"]').fill('grace@example.com')
  await asking.locator('latchkey-signin form[part~="email-form"] button').click()
  await expect.poll(() => asking.locator('latchkey-signin [part="message"]').textContent()).toContain('Check your email')
  const link = server.outbox.at(-1)!.url

  // A scanner's fetch first: it reads the page and uses nothing.
  const scanned = await fetch(link, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; SafeLinks)' } })
  expect(scanned.status).toBe(200)
  expect(scanned.headers.getSetCookie()).toEqual([])

  const phone = await browser.newContext()
  const page = await phone.newPage()
  await page.goto(link)
  await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in as grace@example.com on this device?')
  expect(await phone.cookies()).toEqual([])
  await page.getByRole('button', { name: 'Sign in as grace@example.com' }).click()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => userName(page).textContent()).toBe('grace@example.com')
  // The laptop that asked is not signed in by another device's click.
  expect(await statusOf(asking)).toBe('unauthenticated')
  await laptop.close()
  await phone.close()
})
