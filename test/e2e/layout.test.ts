/**
 * The elements hold at 280 px, in Chromium: a 64-character address, a long display name, long
 * device and provider names and the long otpauth:// link wrap inside every element (its scroll
 * width is its width, and the page scrolls no sideways), and the sign-out button stands inside the
 * viewport, on top, and signs out when clicked. (test/e2e/engines.test.ts checks the user element
 * in Firefox and WebKit.)
 */
import type { Page, Route } from 'playwright-core'
import { expect, test } from 'vitest'
import { browserAndServer, continueAs, openPage, signInWithForm, statusOf, userName } from './helpers.js'

/** 64 characters. */
const address = `${'maximiliana.alexandrina.theodora'}@${'konstantinopoulou-example.org'}`.padEnd(64, 'x').slice(0, 64)
/** A name with no space to break at: the credentials provider makes `<name>@example.com` its address. */
const name = 'Maximiliana-Alexandrina-Theodora-Konstantinopoulou-Featherstonehaugh'
const long = 'A browser with a very long name, Version 123.4567.89.0123, on Some Operating System Release 2026'
const elements = ['latchkey-signin', 'latchkey-user', 'latchkey-sessions', 'latchkey-accounts', 'latchkey-mfa']

const page280 = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>280 px</title>
${elements.map((e) => `<${e}></${e}>`).join('\n')}
<script type="module">
import { createAuthClient, accounts, emailCodes, mfa, password, sessions } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [mfa(), password(), emailCodes(), sessions(), accounts()] })
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({
  mfa: true,
  password: true,
  pages: { '/280': page280 },
  providers: () => [{ id: 'enterprise', name: 'Enterprise Single Sign-On of Konstantinopoulou Example Incorporated', type: 'oidc', issuer: 'https://sso.invalid', clientId: 'x' } as never],
})

/** The lists as a busy account has them: long device and provider names and addresses. */
async function longLists(page: Page) {
  const listed = (key: string, extra: (body: any) => unknown) => async (route: Route) => {
    if (route.request().method() !== 'GET') return route.continue()
    const body = await (await route.fetch()).json()
    await route.fulfill({ json: { ...body, [key]: extra(body) } })
  }
  await page.route('**/auth/sessions', listed('sessions', (b) => [...b.sessions.map((s: object) => ({ ...s, device: long })), { id: 'other', device: long, createdAt: new Date().toISOString(), lastSeenAt: new Date().toISOString(), current: false }]))
  await page.route('**/auth/accounts', listed('accounts', (b) => [...b.accounts, { provider: 'enterprise', name: 'Enterprise Single Sign-On of Konstantinopoulou Example Incorporated', type: 'oidc', email: address }]))
  await page.route('**/auth/mfa', listed('trustedDevices', () => [{ id: 'd', device: long, createdAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 864e5).toISOString(), current: true }]))
}

/** Each element wider inside than it is, and the page's own sideways scroll. */
const overflow = (page: Page) =>
  page.evaluate((elements) => {
    const wide = elements.map((e) => document.querySelector(e)!).filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${el.localName}: ${el.scrollWidth} > ${el.clientWidth}`)
    if (document.documentElement.scrollWidth > innerWidth) wide.push(`the page: ${document.documentElement.scrollWidth} > ${innerWidth}`)
    return wide
  }, elements)

test('at 280 px, with a 64-character address, long names and long links, no element is wider than its place and Sign out is on screen and clickable', async () => {
  const context = await env.browser.newContext({ viewport: { width: 280, height: 800 } })
  const page = await openPage(context, env.server.url + '/280', { controlled: false })
  await longLists(page)
  await page.locator('latchkey-signin [part~="continue"]').waitFor()
  expect(await overflow(page), 'the first step').toEqual([])
  await continueAs(page, address)
  expect(await page.locator('latchkey-signin [part~="account"]').textContent()).toBe(address)
  expect(await overflow(page), 'the ways offered for the address').toEqual([])

  await signInWithForm(page, name)
  await expect.poll(() => userName(page).textContent()).toBe(name)
  await page.locator('latchkey-sessions [part~="session"]').nth(1).waitFor()
  await page.locator('latchkey-accounts [part~="account"]', { hasText: 'Enterprise' }).waitFor()
  await page.locator('latchkey-mfa [part~="device"]').waitFor()
  // The set-up's otpauth:// link names the account: a long URL.
  await page.locator('latchkey-mfa [part~="enroll"]').click()
  expect((await page.locator('latchkey-mfa a[part="link"]').getAttribute('href'))!.length).toBeGreaterThan(120)
  expect(await overflow(page), 'signed in').toEqual([])

  // Sign out: inside the viewport, the topmost thing at its middle, and a click signs out.
  const signOut = page.locator('latchkey-user [part~="signout"]')
  await signOut.scrollIntoViewIfNeeded()
  const placed = await signOut.evaluate((button) => {
    const box = button.getBoundingClientRect()
    const root = button.getRootNode() as ShadowRoot
    const hit = root.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return { inside: box.left >= 0 && box.right <= innerWidth && box.top >= 0 && box.bottom <= innerHeight, onTop: !!hit && button.contains(hit) }
  })
  expect(placed).toEqual({ inside: true, onTop: true })
  await signOut.click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  await context.close()
})
