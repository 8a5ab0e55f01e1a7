/**
 * Device-bound sessions through latchkey's worker, in Chromium (which does not bind sessions
 * itself here): the worker registers a key it cannot export, the app's API call after the short
 * cookie lapsed still succeeds through one refresh, and a copy of the cookies (without the key)
 * in another browser context works only until its short cookie lapses.
 */
import { expect, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { browserAndServer, holdsDeviceKey, openPage, sendSignInEmail, signInWithForm, statusOf } from './helpers.js'

const cookieMaxAge = 600

const env = browserAndServer({ maxAge: 7 * 86400, updateAge: 86400, deviceBound: cookieMaxAge })

const me = (page: Page) => page.evaluate(async () => {
  const res = await fetch('/api/me')
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as { email: string }) : null }
})
const boundCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'latchkey.bound')?.value

test('the worker binds the session; a lapsed short cookie is renewed by the key; a copied jar stops with its short cookie', async () => {
  const owner = await env.browser.newContext()
  const page = await openPage(owner, env.server.url + '/')
  await signInWithForm(page, 'device')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  // The worker registered its key: the server set the short bound cookie.
  await expect.poll(() => boundCookie(owner), { timeout: 15_000 }).toBeTruthy()
  const first = await boundCookie(owner)
  // The cookie comes with the server's answer; the worker stores its key just after: the renewal below needs it.
  await expect.poll(() => page.evaluate(holdsDeviceKey)).toBe(true)
  // The key is in the worker's IndexedDB and cannot be exported.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/latchkey-sw\.js/)

  // The short cookie lapses on the server's clock: the app's API call still succeeds, through one refresh.
  env.server.advance((cookieMaxAge + 1) * 1000)
  expect(await me(page)).toEqual({ status: 200, body: { email: 'device@example.com' } })
  expect(await boundCookie(owner)).not.toBe(first)

  // A thief copies every cookie (not the key) into another browser, and calls the API by hand. (The
  // app's own page there would run latchkey's client, which signs a keyless bound session out once
  // its short cookie lapses, ending the owner's session too: test/e2e/session-loss.test.ts.)
  const thief = await env.browser.newContext()
  await thief.addCookies(await owner.cookies())
  const stolen = await thief.newPage()
  await stolen.goto(env.server.url + '/offline.html')
  expect((await me(stolen)).status).toBe(200)
  env.server.advance((cookieMaxAge + 1) * 1000)
  expect((await me(stolen)).status).toBe(401)
  expect(await stolen.evaluate(async () => (await fetch('/auth/session')).status)).toBe(403)
  // Without the key no refresh succeeds, even asked directly.
  expect(await stolen.evaluate(async () => (await fetch('/auth/dbsc/challenge')).status)).toBe(409)

  // The owner's browser goes on.
  expect(await me(page)).toEqual({ status: 200, body: { email: 'device@example.com' } })
  await Promise.all([owner.close(), thief.close()])
})

test('a sign-in by an email link, a navigation whose registration header the worker does not see, is bound too', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  const sent = env.server.outbox.length
  await sendSignInEmail(page, 'link@example.com')
  await expect.poll(() => env.server.outbox.length).toBe(sent + 1)
  await page.goto(env.server.outbox.at(-1)!.url)
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  // The session read after it carries latchkey's timing header: the worker asks for a challenge and registers.
  await expect.poll(() => boundCookie(context), { timeout: 15_000 }).toBeTruthy()
  expect(await me(page)).toEqual({ status: 200, body: { email: 'link@example.com' } })
  await context.close()
})
