/**
 * `<latchkey-signin>` identifier first, in Chromium, against the test app with a `Password()`
 * provider: Continue asks the server nothing, and the step after it is the same for an address
 * with an account as for one without; one primary action per step; an error under its field;
 * the focus into the next step's first field and back to the identifier; sign-up and forgot at
 * the foot, the password rule shown before anything is sent.
 */
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { browserAndServer, focusedAt, openPage, settled } from './helpers.js'

const env = browserAndServer({ password: true })

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)
/** The visible primary actions: one per step. */
const primaries = (page: Page) =>
  page.locator('latchkey-signin').evaluate((el) => [...el.shadowRoot!.querySelectorAll('[part~="primary"]')].filter((p) => p.getClientRects().length).map((p) => p.textContent))

/**
 * Types `address` and submits the first step, in the page: answers the step shown when the submit
 * returns (before any task could bring an answer from anywhere), its markup with the address as `{address}`.
 */
const continueAt = (page: Page, address: string) =>
  page.locator('latchkey-signin').evaluate((el, address) => {
    const root = el.shadowRoot!
    root.querySelector<HTMLInputElement>('input[part~="identifier"]')!.value = address
    root.querySelector<HTMLFormElement>('form[part~="identifier-form"]')!.requestSubmit()
    const step = root.querySelector('[part~="ways-step"]')
    return step && step.outerHTML.split(address).join('{address}')
  }, address)

test('a known and an unknown address get the identical next step, and Continue asks the server nothing', async () => {
  await env.server.adapter.createUser!({ id: 'user-known', email: 'known@example.com', emailVerified: new Date(), name: 'Known' })
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  await part(page, 'identifier-form').waitFor()
  // Whatever the page asked while loading (the session, the providers, the password part) is answered.
  await settled(page)
  await env.server.idle()
  const before = new Map(env.server.requests)

  const known = await continueAt(page, 'known@example.com')
  await part(page, 'ways-step').locator('[part~="back"]').click()
  const unknown = await continueAt(page, 'nobody@example.com')
  expect(known).toContain('password-form')
  expect(known).toContain('email-form')
  expect(unknown).toBe(known)

  await env.server.idle()
  expect(new Map(env.server.requests)).toEqual(before)
  await context.close()
})

test('one primary action per step; an error under its field; the focus into the next step and back', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  await part(page, 'identifier-form').waitFor()
  expect(await primaries(page)).toEqual(['Continue'])
  const input = signin(page).locator('input[part~="identifier"]')
  expect(await input.getAttribute('autocomplete')).toBe('username')

  // Nothing typed: said under the field, which names it, above Continue.
  await input.focus()
  await page.keyboard.press('Enter')
  const error = part(page, 'error')
  await expect.poll(() => error.textContent()).toBe('Check the “Email or username” field and try again.')
  expect(await input.getAttribute('aria-describedby')).toBe('error')
  const [field, said, button] = await Promise.all([input.boundingBox(), error.boundingBox(), part(page, 'continue').boundingBox()])
  expect(said!.y).toBeGreaterThanOrEqual(field!.y + field!.height)
  expect(said!.y + said!.height).toBeLessThanOrEqual(button!.y)
  expect(await focusedAt(page, 'latchkey-signin', 'input[part~="identifier"]')).toBe(true)

  // An address: the password whole, the other ways quiet, the focus in the password field.
  await input.fill('ada@example.com')
  await page.keyboard.press('Enter')
  await part(page, 'ways-step').waitFor()
  expect(await error.isVisible()).toBe(false)
  expect(await input.getAttribute('aria-describedby')).toBe(null)
  expect(await primaries(page)).toEqual(['Sign in'])
  expect(await part(page, 'ways-step').locator('[part~="choice"]').allTextContents()).toEqual(['Email me a sign-in code', 'Sign in with Credentials', 'Sign in with Passkey'])
  expect(await part(page, 'account').textContent()).toBe('ada@example.com')
  expect(await focusedAt(page, 'latchkey-signin', 'form[part~="password-form"] input[name="password"]')).toBe(true)

  // A quiet choice made the primary: the credentials form, the others (the password among them) quiet.
  await part(page, 'ways-step').locator('[part~="choice"]', { hasText: 'Sign in with Credentials' }).click()
  expect(await primaries(page)).toEqual(['Sign in with Credentials'])
  expect(await part(page, 'ways-step').locator('[part~="choice"]').allTextContents()).toContain('Use your password')

  // Back: the first step, what was typed kept, the focus in its field.
  await part(page, 'ways-step').locator('[part~="back"]').click()
  expect(await focusedAt(page, 'latchkey-signin', 'input[part~="identifier"]')).toBe(true)
  expect(await input.inputValue()).toBe('ada@example.com')
  expect(await primaries(page)).toEqual(['Continue'])

  // A name is no address: only the ways that take one are offered.
  await input.fill('ada')
  await page.keyboard.press('Enter')
  expect(await primaries(page)).toEqual(['Sign in with Credentials'])
  expect(await part(page, 'ways-step').locator('[part~="choice"]').allTextContents()).toEqual(['Sign in with Passkey'])
  await context.close()
})

test('sign-up and forgot are links at the foot, to steps of their own; the password rule shows before anything is sent', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  const foot = part(page, 'foot')
  await expect.poll(() => foot.locator('button').allTextContents()).toEqual(['Forgot password?', 'Create an account'])
  await foot.locator('[part~="signup"]').click()
  await part(page, 'signup-step').waitFor()
  const rule = part(page, 'signup-form').locator('[part~="hint"]')
  expect(await rule.textContent()).toBe('Use at least 8 characters.')
  expect(await rule.isVisible()).toBe(true)
  // The rule is in the field's label, read with its name.
  expect(await part(page, 'signup-form').locator('label', { has: page.locator('input[name="password"]') }).locator('[part~="hint"]').count()).toBe(1)
  expect(await primaries(page)).toEqual(['Create account'])
  expect(env.server.passwordOutbox).toEqual([])
  // The foot follows the ways offered for an address too, once.
  await part(page, 'signup-step').locator('[part~="back"]').click()
  await signin(page).locator('input[part~="identifier"]').fill('ada@example.com')
  await part(page, 'continue').click()
  await part(page, 'ways-step').locator('[part~="foot"] [part~="forgot"]').click()
  await part(page, 'forgot-step').waitFor()
  expect(await part(page, 'forgot-form').locator('input[name="email"]').inputValue()).toBe('ada@example.com')
  await context.close()
})
