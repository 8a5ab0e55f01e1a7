/**
 * The worker is disposable: stopped through the DevTools protocol it comes back on the next
 * call, with its state from IndexedDB; a hard reload (no controller) falls back to the in-page
 * engine and stays in step with the tabs the worker serves.
 */
import { describe, expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf, userName } from './helpers.js'

const env = browserAndServer({ maxAge: 3600, updateAge: 600 })

describe.each([
  ['the worker', '', true],
  ['the in-page engine', '?nosw', false],
])('%s', (_name, query, controlled) => {
  test('coalesces concurrent asks into one request, then answers from IndexedDB', async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/' + query, { controlled })
    await expect.poll(() => statusOf(page)).toBe('unauthenticated')
    // Forget the record, then ask twenty times at once.
    await page.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('latchkey')
      open.onsuccess = () => {
        const tx = open.result.transaction('sessions', 'readwrite')
        tx.objectStore('sessions').clear()
        tx.oncomplete = () => resolve(open.result.close())
      }
    }))
    const before = env.server.sessionRequests.length
    await page.evaluate(() => Promise.all(Array.from({ length: 20 }, () => window.client.getSession())))
    expect(env.server.sessionRequests.length - before).toBe(1)
    await page.evaluate(() => Promise.all(Array.from({ length: 20 }, () => window.client.getSession())))
    expect(env.server.sessionRequests.length - before).toBe(1)
    await context.close()
  })

  test('a session update in one tab reaches the others', async () => {
    const context = await env.browser.newContext()
    const first = await openPage(context, env.server.url + '/' + query, { controlled })
    const second = await openPage(context, env.server.url + '/' + query, { controlled })
    await signInWithForm(first, 'upd')
    await expect.poll(() => statusOf(second)).toBe('authenticated')
    const updated = await first.evaluate(() => window.client.update({ theme: 'dark' }))
    expect(updated).toMatchObject({ theme: 'dark', user: { email: 'upd@example.com' } })
    await expect.poll(() => second.evaluate(() => window.client.session?.theme)).toBe('dark')
    await context.close()
  })
})

describe('a disposable worker', () => {
  test('stopped through CDP, it comes back and the page still works, from IndexedDB with no network', async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/')
    await signInWithForm(page, 'stop')
    await expect.poll(() => statusOf(page)).toBe('authenticated')

    const cdp = await context.newCDPSession(page)
    const states: string[] = []
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => versions.forEach((v: { runningStatus: string }) => states.push(v.runningStatus)))
    await cdp.send('ServiceWorker.enable')
    await cdp.send('ServiceWorker.stopAllWorkers')
    await expect.poll(() => states.at(-1)).toBe('stopped')

    const before = env.server.sessionRequests.length
    const started = Date.now()
    const session = await page.evaluate(() => window.client.getSession())
    console.log(`after stopAllWorkers, getSession answered in ${Date.now() - started} ms (one late call, then a re-bind)`)
    expect(session?.user.email).toBe('stop@example.com')
    expect(states).toContain('running')
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
    // Answered from the IndexedDB record: not due, so no request.
    expect(env.server.sessionRequests.length).toBe(before)

    // And a change still passes through the restarted worker to the page.
    await cdp.send('ServiceWorker.stopAllWorkers')
    await page.locator('latchkey-user button[part~="signout"]').click()
    await expect.poll(() => statusOf(page)).toBe('unauthenticated')
    await context.close()
  })

  test('a hard reload (no controller) falls back to the page and stays correct', async () => {
    const context = await env.browser.newContext()
    const other = await openPage(context, env.server.url + '/')
    const page = await openPage(context, env.server.url + '/')
    // Shift-reload: the browser bypasses the service worker for this page.
    const cdp = await context.newCDPSession(page)
    await cdp.send('Page.reload', { ignoreCache: true })
    await page.waitForFunction(() => window.ready === true)
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull()

    await signInWithForm(page, 'hard')
    await expect.poll(() => userName(page).textContent()).toBe('hard')
    // The controlled tab hears of it (BroadcastChannel) and reads the same IndexedDB record.
    await expect.poll(() => userName(other).textContent()).toBe('hard')
    const before = env.server.sessionRequests.length
    expect(await page.evaluate(() => window.client.getSession().then((s) => s?.user.email))).toBe('hard@example.com')
    expect(await other.evaluate(() => window.client.getSession().then((s) => s?.user.email))).toBe('hard@example.com')
    expect(env.server.sessionRequests.length).toBe(before)

    // A sign-out in the controlled tab reaches the uncontrolled one.
    await other.locator('latchkey-user button[part~="signout"]').click()
    await expect.poll(() => statusOf(page)).toBe('unauthenticated')
    await context.close()
  })
})
