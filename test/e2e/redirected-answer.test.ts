/**
 * The worker reads session headers only from the app's own origin: an app path that redirects
 * (an open redirect) to another origin, which exposes `Latchkey-Session: none` over CORS, must
 * not sign the tabs out while the server's session stays.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf, workerSettled } from './helpers.js'

let other: Server
let otherHits = 0

// Another origin (127.0.0.1, not localhost) that says "signed out" to any page that asks.
beforeAll(async () => {
  other = createServer((_req, res) => {
    otherHits++
    res.writeHead(200, {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Latchkey-Session',
      'latchkey-session': 'none',
      'content-type': 'application/json',
    })
    res.end('null')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
})
afterAll(() => new Promise((resolve) => other?.close(resolve)))
const env = browserAndServer(() => ({ redirects: { '/go': `http://127.0.0.1:${(other.address() as AddressInfo).port}/session` } }))

test('a same-origin fetch redirected to another origin that exposes Latchkey-Session: none signs no tab out', async () => {
  const context = await env.browser.newContext()
  const first = await openPage(context, env.server.url + '/')
  const second = await openPage(context, env.server.url + '/')
  await signInWithForm(first, 'victim')
  for (const page of [first, second]) await expect.poll(() => statusOf(page)).toBe('authenticated')
  const heard = await Promise.all([first, second].map((page) => page.evaluate(() => window.changes.length)))

  // The page's fetch goes through the worker, follows the redirect, and the header is readable.
  const answer = await first.evaluate(async () => {
    const res = await fetch('/go')
    return { redirected: res.redirected, url: res.url, header: res.headers.get('latchkey-session') }
  })
  expect(answer).toMatchObject({ redirected: true, header: 'none' })
  expect(answer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/session$/)
  expect(otherHits).toBe(1)

  // Until the worker has acted on it, had it believed it.
  await workerSettled(first)
  for (const [i, page] of [first, second].entries()) {
    expect(await statusOf(page)).toBe('authenticated')
    expect(await page.evaluate((from) => window.changes.slice(from).map((c) => c.email), heard[i])).toEqual([])
    expect((await page.evaluate(() => window.client.getSession()))?.user.email).toBe('victim@example.com')
  }
  // The server's session was never touched.
  expect(await second.evaluate(async () => (await fetch('/api/me')).status)).toBe(200)
  await context.close()
})
