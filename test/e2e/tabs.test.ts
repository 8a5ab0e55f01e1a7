/**
 * Many tabs, one worker: one /session request per due window whatever the number of tabs (and
 * the same without a worker), a sign-out told to every tab at once, and an offline tab that
 * keeps its session, marked stale.
 */
import { describe, expect, test } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { AdapterError } from '../../src/adapters/errors.js'
import type { Adapter } from '../../src/core/types.js'
import { browserAndServer, openPage, signInWithForm, sleep, statusOf, userName } from './helpers.js'

const updateAge = 2 // seconds: a due window every two seconds, so a few pass in a short test
const maxAge = 120
const tabs = 5

// The server's clock runs an hour ahead of the browser's: the worker must time the rule in the
// server's clock (read from its Date header), or it would wait an hour to extend.
const env = browserAndServer({ maxAge, updateAge, offset: 3600_000 })

async function openTabs(context: BrowserContext, query: string, controlled: boolean): Promise<Page[]> {
  const pages = [await openPage(context, env.server.url + '/' + query, { controlled })]
  await signInWithForm(pages[0], 'tab')
  await expect.poll(() => statusOf(pages[0])).toBe('authenticated')
  for (let i = 1; i < tabs; i++) pages.push(await openPage(context, env.server.url + '/' + query, { controlled }))
  for (const page of pages) await expect.poll(() => statusOf(page)).toBe('authenticated')
  return pages
}

/** Watches /session while the tabs stay open, with the server's clock moved forward midway. */
async function watchWindows(pages: Page[], seconds: number) {
  // Each tab asks once for its own load (src/client/create-auth-client.ts, `loaded`), and a tab
  // told "signed in" by another's broadcast may still have that read on its way: the count starts
  // once those have landed (an ask in every tab joins or follows its read; then the server is
  // idle), so it holds only the due windows' reads.
  await Promise.all(pages.map((page) => page.evaluate(() => window.client.getSession())))
  await env.server.idle()
  const start = env.server.sessionRequests.length
  await sleep((seconds * 1000) / 2)
  // A jump of the server's clock: sessions fall due earlier than the tabs last heard.
  env.server.advance(updateAge * 1000)
  await sleep((seconds * 1000) / 2)
  return env.server.sessionRequests.slice(start)
}

describe.each([
  ['with the service worker', '', true],
  ['without a worker (in-page fallback, Web Locks + BroadcastChannel)', '?nosw', false],
])('%s', (_name, query, controlled) => {
  test(`${tabs} tabs over several due windows make one /session request per window, and keep the session alive`, async () => {
    const context = await env.browser.newContext()
    const pages = await openTabs(context, query, controlled)
    const seconds = 8
    const seen = await watchWindows(pages, seconds)
    const gaps = seen.slice(1).map((r, i) => r.at - seen[i].at)
    console.log(`${_name}: ${seen.length} /session requests from ${tabs} tabs in ${seconds}s with updateAge ${updateAge}s; gaps (server ms) ${gaps.join(', ')}`)
    // Every request was a due access that extended the session: none was spent inside a window
    // that another tab had already refreshed.
    expect(seen.every((r) => r.extended)).toBe(true)
    // And the open app kept extending it, window after window.
    expect(seen.length).toBeGreaterThanOrEqual(3)
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(seconds / updateAge) + 1)
    await context.close()
  })
})

describe('changes reach every tab', () => {
  test('a sign-out in one tab reaches every tab', async () => {
    const context = await env.browser.newContext()
    const pages = await openTabs(context, '', true)
    const clicked = Date.now()
    await pages[0].locator('latchkey-user button[part~="signout"]').click()
    for (const page of pages) await expect.poll(() => statusOf(page), { interval: 5 }).toBe('unauthenticated')
    const arrivals = await Promise.all(pages.map((p) => p.evaluate(() => window.changes.findLast((c) => c.email === null)!.at)))
    const slowest = Math.max(...arrivals) - clicked
    const spread = Math.max(...arrivals) - Math.min(...arrivals)
    console.log(`sign-out reached all ${tabs} tabs ${slowest} ms after the click (spread between tabs ${spread} ms)`)
    for (const page of pages) expect(await userName(page).count()).toBe(0)
    await context.close()
  })

  test('an offline tab keeps its session, marked stale, and recovers when back online', async () => {
    const context = await env.browser.newContext()
    const [page] = await openTabs(context, '', true).then((p) => p.slice(0, 1))
    await context.setOffline(true)
    // Past the due instant the tab asks; the request fails; the last session stays, stale.
    await expect.poll(() => page.evaluate(() => window.client.session?.stale ?? false), { timeout: 10_000 }).toBe(true)
    const session = await page.evaluate(() => window.client.getSession())
    expect(session).toMatchObject({ user: { email: 'tab@example.com' }, stale: true })
    expect(await statusOf(page)).toBe('authenticated')
    await expect.poll(() => page.locator('latchkey-user [part="stale"]').count()).toBe(1)
    await context.setOffline(false)
    await expect.poll(() => page.evaluate(() => window.client.session?.stale ?? false), { timeout: 10_000 }).toBe(false)
    expect(await userName(page).textContent()).toBe('tab')
    await context.close()
  })

  test("a database outage (503 StoreUnavailable) keeps the worker's session, marked stale, and it comes back with no sign-in", async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/', { controlled: true })
    await signInWithForm(page, 'outage')
    await expect.poll(() => statusOf(page)).toBe('authenticated')
    const signedInAt = await page.evaluate(() => window.changes.length)
    // What the PostgreSQL adapter throws while its database restarts.
    const store = env.server.adapter as Required<Adapter>
    const read = store.getSessionAndUser
    store.getSessionAndUser = async () => {
      throw new AdapterError('StoreUnavailable', 'The database did not answer; try again in a few seconds')
    }
    try {
      // Past the due instant the worker asks; the server answers 503; the session stays, stale.
      await expect.poll(() => page.evaluate(() => window.client.session?.stale ?? false), { timeout: 10_000 }).toBe(true)
      expect(await statusOf(page)).toBe('authenticated')
      await expect.poll(() => page.locator('latchkey-user [part="stale"]').count()).toBe(1)
    } finally {
      store.getSessionAndUser = read
    }
    // The next try (after Retry-After, or the backoff) reads it again.
    await expect.poll(() => page.evaluate(() => window.client.session?.stale ?? false), { timeout: 25_000 }).toBe(false)
    expect(await userName(page).textContent()).toBe('outage')
    // Told stale, then fresh: never signed out.
    expect(await page.evaluate((from) => window.changes.slice(from).map((c) => [c.email, c.stale]), signedInAt)).toEqual([
      ['outage@example.com', true],
      ['outage@example.com', false],
    ])
    await context.close()
  }, 60_000)
})
