/**
 * The user's sessions in Chromium: two browsers (contexts) signed into one account; the first
 * lists both in `<latchkey-sessions>` and ends the other, whose every tab shows signed out by its
 * next due read; "end all other sessions" then a sign-out ends them everywhere.
 */
import { expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAndServer, openPage, signInWithForm, statusOf } from './helpers.js'

const updateAge = 2 // seconds: the due window, so the bound is short
const env = browserAndServer({ maxAge: 120, updateAge })

async function device(username: string, tabs: number): Promise<Page[]> {
  const context = await env.browser.newContext()
  const first = await openPage(context, env.server.url + '/')
  await signInWithForm(first, username)
  await expect.poll(() => statusOf(first)).toBe('authenticated')
  const pages = [first]
  for (let i = 1; i < tabs; i++) pages.push(await openPage(context, env.server.url + '/'))
  for (const page of pages) await expect.poll(() => statusOf(page)).toBe('authenticated')
  return pages
}

const showSessions = (page: Page) =>
  page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-sessions id="sessions"></latchkey-sessions>'))
const rows = (page: Page) => page.locator('#sessions li[part="session"]')

/** Waits for every tab to show signed out, and answers how long the slowest took (ms). */
async function allSignedOut(pages: Page[], since: number): Promise<number> {
  for (const page of pages) await expect.poll(() => statusOf(page), { timeout: (updateAge + 8) * 1000, interval: 50 }).toBe('unauthenticated')
  return Date.now() - since
}

test('one device ends the other: every tab there is signed out by its next due read', async () => {
  const [laptop] = await device('two', 1)
  const phone = await device('two', 3)
  await showSessions(laptop)
  await expect.poll(() => rows(laptop).count()).toBe(2)
  await expect.poll(() => laptop.locator('#sessions li[data-current]').textContent()).toMatch(/this device/)
  const ended = Date.now()
  await laptop.locator('#sessions li:not([data-current]) button').click()
  await expect.poll(() => rows(laptop).count()).toBe(1)
  const took = await allSignedOut(phone, ended)
  // The bound: the next due read comes within one window (plus the time to ask and tell the tabs).
  expect(took).toBeLessThan((updateAge + 2) * 1000)
  console.log(`the ended device's ${phone.length} tabs showed signed out ${took} ms after the end (due window ${updateAge} s)`)
  expect(await statusOf(laptop)).toBe('authenticated')
  await Promise.all([laptop.context().close(), phone[0].context().close()])
})

test('end all other sessions, then sign out: signed out everywhere', async () => {
  const [a] = await device('all', 1)
  const b = await device('all', 2)
  const c = await device('all', 1)
  await showSessions(a)
  await expect.poll(() => rows(a).count()).toBe(3)
  const ended = Date.now()
  await a.locator('#sessions button[part~="end-others"]').click()
  await expect.poll(() => rows(a).count()).toBe(1)
  await a.locator('latchkey-user button[part~="signout"]').click()
  await allSignedOut([a], ended)
  expect(await allSignedOut([...b, ...c], ended)).toBeLessThan((updateAge + 2) * 1000)
  await Promise.all([a, b[0], c[0]].map((p) => p.context().close()))
})
