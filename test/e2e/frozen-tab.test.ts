/**
 * The in-page engine's Web Lock: a tab frozen while it holds the refresh lock (its request sent,
 * its answer never read) must not freeze the others. They wait at most `lockDeadline`, then
 * refresh without it; the frozen tab, thawed, carries on.
 *
 * The holder is frozen through CDP `Page.setWebLifecycleState`. Headless Chromium (156) keeps
 * every page visible and does not freeze one (no `freeze` event, its timers keep running), so the
 * test also stops the holder's script with `Debugger.pause`: the same state for the lock, held
 * by a tab whose script does not run.
 */
import { expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { lockDeadline } from '../../src/client/session-engine.js'
import { browserAndServer, openPage, signInWithForm, statusOf } from './helpers.js'

const env = browserAndServer()

const heldLocks = (page: Page) => page.evaluate(() => navigator.locks.query().then((s) => (s.held ?? []).map((l) => l.name)))

test('a tab frozen (CDP Page.setWebLifecycleState) while it holds the refresh lock does not stall the other tabs', async () => {
  const context = await env.browser.newContext()
  const holder = await openPage(context, env.server.url + '/?nosw', { controlled: false })
  const other = await openPage(context, env.server.url + '/?nosw', { controlled: false })
  await signInWithForm(holder, 'frozen')
  await expect.poll(() => statusOf(other)).toBe('authenticated')
  // Forget the record, so the next ask refreshes under the lock.
  await other.evaluate(() => new Promise((resolve) => {
    const open = indexedDB.open('latchkey')
    open.onsuccess = () => {
      const tx = open.result.transaction('sessions', 'readwrite')
      tx.objectStore('sessions').clear()
      tx.oncomplete = () => resolve(open.result.close())
    }
  }))

  // The holder takes the lock and sends its request; the server keeps the answer back.
  const release = env.server.holdSessions()
  await holder.evaluate(() => void window.client.getSession())
  await expect.poll(() => heldLocks(other)).toEqual([`latchkey:${env.server.url}/auth/session`])
  const cdp = await context.newCDPSession(holder)
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' })
  await cdp.send('Debugger.enable')
  // The holder's script stops at the first statement it would run (the answer's arrival at the latest).
  const paused = new Promise((resolve) => cdp.once('Debugger.paused', resolve))
  await cdp.send('Debugger.pause')
  release()
  // Answered, but frozen: once the answer is sent and the holder's script stopped, it has not
  // read the answer, and keeps the lock.
  await env.server.idle()
  await paused
  expect(await heldLocks(other)).toEqual([`latchkey:${env.server.url}/auth/session`])

  const started = Date.now()
  const session = await other.evaluate(() => window.client.getSession())
  const waited = Date.now() - started
  console.log(`with the lock's holder frozen, another tab answered in ${waited} ms (deadline ${lockDeadline} ms)`)
  expect(session?.user.email).toBe('frozen@example.com')
  expect(waited).toBeLessThan(lockDeadline + 3000)

  // Thawed, the holder finishes its refresh and lets the lock go.
  await cdp.send('Debugger.resume')
  await cdp.send('Page.setWebLifecycleState', { state: 'active' })
  await expect.poll(() => heldLocks(other)).toEqual([])
  expect(await holder.evaluate(() => window.client.getSession().then((s) => s?.user.email))).toBe('frozen@example.com')
  await context.close()
})
