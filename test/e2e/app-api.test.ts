/**
 * The app's own API and the worker: a sign-out elsewhere (the session ended on the server) shows
 * up as a 401 from the app's API, and the worker reads it, so every tab learns it at once, without
 * the app asking for the session again and before the record was due.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf } from './helpers.js'

// A long due window: without the 401 the tabs would not ask again for ten minutes.
const env = browserAndServer({ maxAge: 3600, updateAge: 600 })

test('a 401 from the app API after a sign-out elsewhere signs every tab out', async () => {
  const context = await env.browser.newContext()
  const first = await openPage(context, env.server.url + '/')
  await signInWithForm(first, 'api')
  await expect.poll(() => statusOf(first)).toBe('authenticated')
  const second = await openPage(context, env.server.url + '/')
  await expect.poll(() => statusOf(second)).toBe('authenticated')
  expect(await first.evaluate(async () => (await fetch('/api/me')).json())).toEqual({ email: 'api@example.com' })

  await env.server.endSessions('api')
  const before = env.server.sessionRequests.length
  const status = await first.evaluate(async () => (await fetch('/api/me')).status)
  expect(status).toBe(401)
  for (const page of [first, second]) await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  // Told by the 401 itself (it cleared the cookie with `Latchkey-Session: none`): no /session read was needed.
  expect(env.server.sessionRequests.length).toBe(before)
  await context.close()
})

test('a bare 401 (no Latchkey-Session header) has the worker read the session once', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  await signInWithForm(page, 'bare')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await env.server.endSessions('bare')
  const before = env.server.sessionRequests.length
  // Without its cookie the API cannot clear it, so the 401 carries no header.
  await context.clearCookies()
  expect(await page.evaluate(async () => (await fetch('/api/me')).status)).toBe(401)
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  expect(env.server.sessionRequests.length - before).toBe(1)
  await context.close()
})
