/**
 * The SDK, worker and components against a plain Auth.js server (@auth/core under /api/auth):
 * no Latchkey-Session header, so the worker falls back to the session's `expires` and the paths
 * it sees pass (callback, signout) to keep every tab right.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf, userName, workerSettled } from './helpers.js'

const env = browserAndServer({ authjs: true })

/** Requests for latchkey's device-binding routes, which Auth.js does not have. */
const dbscRequests = () => [...env.server.requests].reduce((n, [key, count]) => n + (key.includes('/dbsc/') ? count : 0), 0)

test.each([
  ['with the worker', '', true],
  ['without a worker', '&nosw', false],
])('against Auth.js %s: sign in with the component, every tab hears, sign out reaches every tab', async (_name, query, controlled) => {
  const context = await env.browser.newContext()
  const url = env.server.url + '/?base=/api/auth' + query
  const first = await openPage(context, url, { controlled })
  const second = await openPage(context, url, { controlled })
  expect(await statusOf(first)).toBe('unauthenticated')
  const asked = dbscRequests()

  await signInWithForm(first, 'ada', 'wrong')
  await expect.poll(() => first.locator('latchkey-signin [part="error"]').textContent()).toBe('Sign in failed. Check the details you provided are correct.')
  await signInWithForm(first, 'ada')
  await expect.poll(() => userName(first).textContent()).toBe('ada')
  await expect.poll(() => userName(second).textContent()).toBe('ada')
  const session = await second.evaluate(() => window.client.getSession())
  expect(session?.user.email).toBe('ada@example.com')

  // Read from the record, not the network, until the conservative refresh falls due.
  const before = env.server.sessionRequests.length
  await Promise.all([first, second].map((p) => p.evaluate(() => Promise.all([1, 2, 3].map(() => window.client.getSession())))))
  expect(env.server.sessionRequests.length).toBe(before)

  // Auth.js announces no device binding: the worker, which would ask 2 s after a sign-in, asks
  // nothing once it has nothing under way.
  if (controlled) await workerSettled(first)
  expect(dbscRequests()).toBe(asked)

  await second.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(first)).toBe('unauthenticated')
  await expect.poll(() => statusOf(second)).toBe('unauthenticated')
  await context.close()
})

test('against Auth.js: the SDK signs in with redirect: false, updates the session and signs out without a redirect', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/?base=/api/auth&nosw', { controlled: false })
  const refused = await page.evaluate(() => window.client.signIn('credentials', { username: 'ada', password: 'wrong', redirect: false }))
  expect(refused).toMatchObject({ ok: false, error: 'CredentialsSignin', url: null })
  const signedIn = await page.evaluate(() => window.client.signIn('credentials', { username: 'ada', password: 'secret', redirect: false }))
  expect(signedIn).toMatchObject({ ok: true, error: undefined })
  expect((await page.evaluate(() => window.client.getSession()))?.user.email).toBe('ada@example.com')
  const updated = await page.evaluate(() => window.client.update({ name: 'Ada Lovelace' }))
  expect(updated?.user.name).toBe('Ada Lovelace')
  await expect.poll(() => userName(page).textContent()).toBe('Ada Lovelace')
  expect((await page.evaluate(() => window.client.getSession()))?.user.name).toBe('Ada Lovelace')
  await page.evaluate(() => window.client.signOut({ redirect: false }))
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  expect(await page.evaluate(() => window.client.getSession())).toBeNull()
  await context.close()
})

test('against Auth.js: a CSRF token that no longer matches the cookie (another answer set a new one) is fetched again once', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/?base=/api/auth&nosw', { controlled: false })
  // The first /csrf answers a token the cookie does not hold, as when a read's Set-Cookie lands after it.
  let stale = 1
  await page.route('**/api/auth/csrf', (route) => (stale-- > 0 ? route.fulfill({ json: { csrfToken: 'stale' } }) : route.continue()))
  const posts: string[] = []
  page.on('request', (r) => void (r.method() === 'POST' && posts.push(new URL(r.url()).pathname)))
  const signedIn = await page.evaluate(() => window.client.signIn('credentials', { username: 'ada', password: 'secret', redirect: false }))
  expect(signedIn).toMatchObject({ ok: true, error: undefined })
  expect(posts).toEqual(['/api/auth/callback/credentials', '/api/auth/callback/credentials'])
  expect((await page.evaluate(() => window.client.getSession()))?.user.email).toBe('ada@example.com')
  await context.close()
})
