/**
 * A reload of a page the worker already controls learns its session in one trip to the worker
 * (`npm run bench -- client-cost` times it): the page's first read is posted on the new port at
 * once, before the worker's `ready`, and the worker registration's import and browser calls wait
 * until that read has answered. Both orders are read from the page's own messages, not timed.
 * A controller that is not latchkey's still leaves the page to its own engine.
 */
import { expect, test } from 'vitest'
import { browserAndServer, openPage, signInWithForm, statusOf } from './helpers.js'

const started = browserAndServer()

/** Notes, in order, what the page posts and hears on its ports and when it registers a worker. */
const watch = `(() => {
  const log = (window.portLog = [])
  const post = MessagePort.prototype.postMessage
  MessagePort.prototype.postMessage = function (data, ...rest) {
    if (typeof data?.id === 'number') log.push('call')
    return post.call(this, data, ...rest)
  }
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    get() { return onmessage.get.call(this) },
    set(f) {
      onmessage.set.call(this, f && function (e) {
        if (e.data?.latchkey === 'ready') log.push('ready')
        else if (e.data?.state) log.push('state')
        return f.call(this, e)
      })
    },
  })
  const register = ServiceWorkerContainer.prototype.register
  ServiceWorkerContainer.prototype.register = function (...args) {
    log.push('register')
    return register.apply(this, args)
  }
})()`

test('after a reload, the first read goes to the worker with the connect, and the registration waits for its answer', async () => {
  const { browser, server } = started
  const context = await browser.newContext()
  const page = await openPage(context, server.url + '/')
  await signInWithForm(page, 'reload')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await context.addInitScript(watch)
  const before = server.sessionRequests.length

  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  expect(await page.evaluate(() => window.client.workerRegistration.then((r) => r.status))).toBe('registered')
  const log = await page.evaluate(() => (window as unknown as { portLog: string[] }).portLog)
  // The page's reads (the client's, the elements') were posted before `ready` came back, and the
  // registration came after the first answer.
  expect(log[0]).toBe('call')
  expect(log.indexOf('call')).toBeLessThan(log.indexOf('ready'))
  expect(log.indexOf('state')).toBeGreaterThan(log.indexOf('ready'))
  expect(log.indexOf('register')).toBeGreaterThan(log.indexOf('state'))
  expect(log.filter((e) => e === 'register')).toHaveLength(1)
  // The worker answered from its record: the reload cost the server nothing.
  expect(server.sessionRequests.length).toBe(before)
  await context.close()
})

test("a controller that is not latchkey's never answers: the page reads the session itself", async () => {
  const { browser, server } = started
  const context = await browser.newContext()
  // The app's own worker without latchkey in it: it takes the connect message and says nothing.
  const page = await openPage(context, server.url + '/?appsw=/app-sw.js')
  await signInWithForm(page, 'foreign')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
  expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('foreign@example.com')
  await context.close()
})
