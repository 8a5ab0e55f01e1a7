/**
 * The demo site for the browser tests that walk it (demo.test.ts, demo-accounts.test.ts): each file
 * starts its own `demo/server.ts` (free ports, a temporary data folder) and Chromium, so the two
 * files run side by side. Screenshots go to test-results/demo/; with UPDATE_SCREENSHOTS=1 the two
 * the README shows are rewritten in docs/screenshots/.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { browserAnd } from '../support/browser-and.js'
import { addAuthenticator, continueAs, startDemo } from './helpers.js'

export function demoSite() {
  let origin: string
  const env = browserAnd(startDemo, { timeout: 120_000 })
  beforeAll(() => {
    mkdirSync(docs, { recursive: true })
    origin = env.server.origin
  })

  const root = join(import.meta.dirname, '../..')
  const shots = join(root, 'test-results/demo')
  // A test run leaves the tracked tree alone unless asked to refresh the README's pictures.
  const docs = join(root, process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/demo')


  async function tab(context?: BrowserContext): Promise<Page> {
    const ctx = context ?? (await env.browser.newContext({ viewport: { width: 1120, height: 900 } }))
    const page = await ctx.newPage()
    page.on('pageerror', (e) => console.error('[page error]', e.message))
    await page.goto(origin + '/')
    await expect.poll(() => page.locator('#panel-status').textContent()).not.toBe('Loading…')
    return page
  }

  const user = (page: Page) => page.locator('#panel-user')
  const status = (page: Page) => page.locator('#panel-status')

  async function signedInAs(page: Page, email: string) {
    await page.locator('#panel-user', { hasText: email }).waitFor({ timeout: 15_000 })
    await page.locator('#panel-status', { hasText: 'Signed in' }).waitFor()
    await page.locator('latchkey-user', { hasText: 'Sign out' }).waitFor()
  }

  async function signedOut(page: Page) {
    await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor({ timeout: 15_000 })
    expect(await user(page).textContent()).toBe('—')
  }

  async function signOut(page: Page) {
    await page.locator('latchkey-user button', { hasText: 'Sign out' }).click()
    await signedOut(page)
  }

  /** Every <img> of the page and of its components that did not load (an avatar, a logo). */
  const brokenImages = (page: Page) =>
    page.evaluate(() => {
      const roots: (Document | ShadowRoot)[] = [document, ...[...document.querySelectorAll('*')].flatMap((el) => (el.shadowRoot ? [el.shadowRoot] : []))]
      return roots.flatMap((root) => [...root.querySelectorAll('img')]).filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src)
    })

  /** The panel's next refresh: with the demo's updateAge of 60 s, within the minute whichever way one signed in. */
  async function refreshWithinAMinute(page: Page) {
    await expect.poll(() => page.locator('#panel-due').textContent()).toMatch(/\d:\d\d\s[AP]M in \d+ s, by the session worker/)
  }

  /** The errors shown on the page: the components' and the page's own. */
  const shownErrors = (page: Page) =>
    page.evaluate(() => {
      const own = [...document.querySelectorAll('.message.error')]
      const component = [...document.querySelector('latchkey-signin')!.shadowRoot!.querySelectorAll('[part~="error"]')]
      return [...own, ...component].filter((el) => (el as HTMLElement).offsetParent !== null && el.textContent).map((el) => el.textContent)
    })

  /** A new browser context with Chromium's virtual authenticator (CTAP2, internal, resident keys, user verification), on the demo. */
  async function withAuthenticator(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await env.browser.newContext({ viewport: { width: 1120, height: 900 } })
    const page = await context.newPage()
    await addAuthenticator(page)
    await page.goto(origin + '/')
    return { context, page }
  }

  async function withCredentials(page: Page, password = 'demo') {
    await continueAs(page, 'demo')
    await page.locator('latchkey-signin form[part~="credentials-form"] input[name=password]').fill(password)
    await page.locator('latchkey-signin button', { hasText: 'Sign in with Demo account' }).click()
  }

  return { env, shots, docs, tab, user, status, signedInAs, signedOut, signOut, brokenImages, refreshWithinAMinute, shownErrors, withAuthenticator, withCredentials }
}
