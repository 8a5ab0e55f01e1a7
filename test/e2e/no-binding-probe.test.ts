/**
 * With device binding off (the default), a sign-in through the worker asks the server for no
 * device-binding challenge, so the server logs nothing about a route that is off.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, statusOf, workerSettled } from './helpers.js'

const env = browserAndServer()

test('a sign-in and session reads with binding off: no /dbsc request reaches the server', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  const ok = await page.evaluate(() => window.client.signIn('credentials', { username: 'probe', password: 'secret', redirect: false }).then((r) => r.ok))
  expect(ok).toBe(true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  // The worker would wait two seconds for a browser's own binding before binding itself: once the
  // reload's read is answered, wait until the worker has nothing under way, a binding included.
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await page.evaluate(() => window.client.getSession())
  await workerSettled(page)
  expect([...env.server.requests.keys()].filter((k) => k.includes('/dbsc/'))).toEqual([])
  await context.close()
})
