/**
 * With device binding off (the default), a sign-in through the worker asks the server for no
 * device-binding challenge, so the server logs nothing about a route that is off.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, statusOf } from './helpers.js'

const env = browserAndServer()

test('a sign-in and session reads with binding off: no /dbsc request reaches the server', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  const ok = await page.evaluate(() => window.client.signIn('credentials', { username: 'probe', password: 'secret', redirect: false }).then((r) => r.ok))
  expect(ok).toBe(true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  // The worker waits two seconds for a browser's own binding before binding itself; wait past it.
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await page.waitForTimeout(3000)
  expect([...env.server.requests.keys()].filter((k) => k.includes('/dbsc/'))).toEqual([])
  await context.close()
})
