/**
 * The elements with assistive technology in mind, in Chromium: axe-core (injected into the page;
 * it looks inside open shadow roots) finds no WCAG 2.x A/AA violation signed out (every
 * provider), with an error shown, on the second-factor step, on the password sign-up, forgot and
 * reset steps, signed in (user, sessions with items, accounts, mfa), and in dark mode. The
 * keyboard alone (Tab, Enter, Space) signs in with credentials, ends another session and signs
 * out, the focus checked after each step. "Last used" marks the provider of the last sign-in on
 * this device.
 */
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { secretOf, totp } from '../support/totp.js'
import { browserAndServer, openPage, signInWithForm, statusOf, userName } from './helpers.js'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const env = browserAndServer({ mfa: true, password: true, maxAge: 600, updateAge: 60 })

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)

interface Violation { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }

/** axe's WCAG 2.x A/AA rules over the whole page; each violation in one readable line per node. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath })
  const found: Violation[] = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] })
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) }))
  })
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(n.target)}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`))
}

const clean = async (page: Page, what: string) => expect(await violations(page), what).toEqual([])

/** The page with every element: the test page's sign-in, user and mfa elements, plus sessions and accounts. */
async function fullPage(context: BrowserContext, query = ''): Promise<Page> {
  const page = await openPage(context, env.server.url + '/' + query)
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-sessions></latchkey-sessions><latchkey-accounts></latchkey-accounts>'))
  await expect.poll(() => part(page, 'password-form').isVisible()).toBe(true)
  return page
}

/** Whether the focus is on `selector` inside `host`'s shadow root. */
const focusedIn = (page: Page, host: string, selector: string) =>
  page.evaluate(([h, s]) => {
    const root = document.querySelector(h!)!.shadowRoot!
    return !!root.activeElement && root.activeElement === root.querySelector(s!)
  }, [host, selector])

/** Presses Tab until the focus is on `selector` in `host` (at most `max` times); answers the presses. */
async function tabTo(page: Page, host: string, selector: string, max = 40): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab')
    if (await focusedIn(page, host, selector)) return i
  }
  throw new Error(`Tab never reached ${selector} in ${host}`)
}

test('signed out, with every provider: no violations, light and dark', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  expect(await signin(page).locator('button[data-provider]').count()).toBeGreaterThan(2)
  await clean(page, 'signed out')
  // axe does look inside shadow roots: an unlabelled field and a 10px button there are found.
  await page.evaluate(() => {
    const host = document.body.appendChild(document.createElement('div'))
    host.id = 'bad'
    host.attachShadow({ mode: 'open' }).innerHTML = '<input><button style="width:10px;height:10px;padding:0;border:0;position:absolute;left:0;top:0"></button>'
  })
  const found = (await violations(page)).join('\n')
  expect(found).toMatch(/^label /m)
  expect(found).toMatch(/^button-name /m)
  await page.evaluate(() => document.getElementById('bad')!.remove())
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'signed out, dark')
  // Dark mode changes the elements' own colours (they follow prefers-color-scheme).
  const input = part(page, 'password-form').locator('input[name="email"]')
  expect(await input.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(255, 255, 255)')
  await context.close()
})

test('errors shown: no violations, and the error is tied to its fields', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context, '?error=Configuration')
  await expect.poll(() => part(page, 'error').isVisible()).toBe(true)
  await clean(page, 'an error from the URL')
  await signInWithForm(page, 'ana', 'wrong')
  const error = part(page, 'error')
  const described = signin(page).locator('form[part~="credentials-form"] input[name="username"]')
  await expect.poll(() => described.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'))
  expect(await error.isVisible()).toBe(true)
  expect(await error.getAttribute('role')).toBe('alert')
  await clean(page, 'a refused sign-in')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'a refused sign-in, dark')
  await context.close()
})

test('the password steps (sign-up, confirm, forgot, reset): no violations', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  await part(page, 'signup').click()
  await expect.poll(() => part(page, 'signup-step').isVisible()).toBe(true)
  await clean(page, 'sign-up')
  await part(page, 'signup-form').locator('input[name="email"]').fill('pat@example.com')
  await part(page, 'signup-form').locator('input[name="password"]').fill('a long enough password')
  await part(page, 'signup-form').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'verify-step').isVisible()).toBe(true)
  await clean(page, 'confirm the address')
  await part(page, 'verify-step').locator('[part~="back"]').click()
  await part(page, 'forgot').click()
  await expect.poll(() => part(page, 'forgot-step').isVisible()).toBe(true)
  await clean(page, 'forgot')
  await part(page, 'forgot-form').locator('input[name="email"]').fill('pat@example.com')
  await part(page, 'forgot-form').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'reset-form').isVisible()).toBe(true)
  await clean(page, 'reset')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'reset, dark')
  await context.close()
})

test('the second-factor step, and signed in with every element showing items: no violations', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  // Another device, so the sessions list has two items.
  const other = await env.browser.newContext()
  await signInWithForm(await openPage(other, env.server.url + '/'), 'mo')
  await signInWithForm(page, 'mo')
  await expect.poll(() => userName(page).textContent()).toBe('mo')
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(2)
  await expect.poll(() => page.locator('latchkey-accounts button[part~="connect"]').count()).toBeGreaterThan(0)
  await clean(page, 'signed in')
  // Set up an app: the enrolment, then the recovery codes, then the list with a factor.
  const mfa = page.locator('latchkey-mfa')
  await mfa.locator('button[part~="enroll"]').click()
  const link = mfa.locator('a[part="link"]')
  await expect.poll(() => link.isVisible()).toBe(true)
  await clean(page, 'enrolment')
  const secret = secretOf((await link.getAttribute('href'))!)
  await mfa.locator('form[part~="enroll-form"] input').fill(totp(secret, env.server.now()))
  await mfa.locator('form[part~="enroll-form"] button[type="submit"]').click()
  await expect.poll(() => mfa.locator('[part="codes"] li').count()).toBe(10)
  await clean(page, 'recovery codes')
  await mfa.locator('button[part~="done"]').click()
  await expect.poll(() => mfa.locator('li[part="factor"]').count()).toBe(1)
  await clean(page, 'the factors')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'signed in, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  // The next sign-in asks for the code.
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  await signInWithForm(page, 'mo')
  await expect.poll(() => part(page, 'mfa-step').isVisible()).toBe(true)
  await clean(page, 'the second-factor step')
  await part(page, 'mfa-step').locator('input[name="code"]').fill('000000')
  await part(page, 'mfa-step').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'mfa-step').locator('[part~="error"]').isVisible()).toBe(true)
  await clean(page, 'the second-factor step, a wrong code')
  await Promise.all([context.close(), other.close()])
})

test('the keyboard alone: credentials sign-in, ending another session, sign-out; the focus after each step', async () => {
  const other = await env.browser.newContext()
  await signInWithForm(await openPage(other, env.server.url + '/'), 'kay')
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-signin', 'form[part~="credentials-form"] input[name="username"]')
  await page.keyboard.type('kay')
  await page.keyboard.press('Tab')
  expect(await focusedIn(page, 'latchkey-signin', 'form[part~="credentials-form"] input[name="password"]')).toBe(true)
  await page.keyboard.type('secret')
  await page.keyboard.press('Enter')
  await expect.poll(() => userName(page).textContent()).toBe('kay')
  // The sign-in form went away with the focus in it: the focus goes to the user element's sign-out.
  await expect.poll(() => focusedIn(page, 'latchkey-user', 'button[part~="signout"]')).toBe(true)
  // End the other device's session: Tab to its button, Space.
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(2)
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-sessions', 'li:not([data-current]) button')
  await page.keyboard.press('Space')
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(1)
  // The row went with the focus: it goes to the list's next button, this device's.
  await expect.poll(() => focusedIn(page, 'latchkey-sessions', 'li[data-current] button')).toBe(true)
  // Sign out from the user element: Tab to it, Enter.
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-user', 'button[part~="signout"]')
  await page.keyboard.press('Enter')
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  // Signed out, the focus is back on the sign-in element's first field.
  await expect.poll(() => page.evaluate(() => document.activeElement?.localName)).toBe('latchkey-signin')
  await Promise.all([context.close(), other.close()])
})

test('"Last used" marks the provider of the last sign-in on this device, in words', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  expect(await part(page, 'last-used').count()).toBe(0)
  await signInWithForm(page, 'lu')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  const badge = part(page, 'last-used')
  await expect.poll(() => badge.count()).toBe(1)
  expect(await badge.textContent()).toBe('Last used')
  expect(await badge.isVisible()).toBe(true)
  // On the credentials form, and it survives a reload (localStorage, no cookie).
  expect(await signin(page).locator('form[part~="credentials-form"] [part~="last-used"]').count()).toBe(1)
  expect((await context.cookies()).some((c) => /last/i.test(c.name))).toBe(false)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => signin(page).locator('form[part~="credentials-form"] [part~="last-used"]').count()).toBe(1)
  await clean(page, 'with the badge')
  await context.close()
})
