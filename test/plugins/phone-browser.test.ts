/**
 * Phone-number sign-in in Chromium, through `<latchkey-signin>` against the test app server with
 * `Phone()` beside its other providers: the element builds the plugin-described form from GET
 * /providers (its field, its words), sends the code, shows the code form, and the code signs in;
 * a number that is not one is refused in place, and a wrong code is said under the code form.
 */
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { Phone } from 'latchkey/plugins/phone'
import { browserAndServer, continueAs, openPage, statusOf } from '../e2e/helpers.js'

const texts: Array<{ to: string; text: string }> = []
const env = browserAndServer({ providers: () => [Phone({ sendSms: async (to, text) => void texts.push({ to, text }), defaultCountry: 'US' })] })

const signin = (page: Page) => page.locator('latchkey-signin')
const form = (page: Page) => signin(page).locator('form[part~="plugin-form"][data-provider="phone"]')
const codeForm = (page: Page) => signin(page).locator('form[part~="code-form"]:not([hidden])')

/** The code of the newest text to `to`, once it is there. */
async function codeFor(to: string, after: number): Promise<string> {
  await expect.poll(() => texts.slice(after).some((t) => t.to === to)).toBe(true)
  return texts.slice(after).findLast((t) => t.to === to)!.text.slice(0, 6)
}

test('<latchkey-signin> signs up with a phone number and the texted code, then signs in again', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url)
  // The first step's one field takes a phone number too; a number goes the phone way.
  await signin(page).locator('form[part~="identifier-form"] label', { hasText: 'phone number' }).waitFor()
  await continueAs(page, '(415) 555-0100')
  expect(await form(page).locator('input[name="phone"]').getAttribute('type')).toBe('tel')
  expect(await form(page).locator('input[name="phone"]').getAttribute('autocomplete')).toBe('tel')

  // A number that is not one: refused in place, nothing sent.
  await continueAs(page, '555')
  await form(page).locator('button[type="submit"]').click()
  await expect.poll(() => signin(page).locator('[part~="error"]:not([hidden])').count()).toBe(1)
  expect(texts).toEqual([])

  // Typed as people type it; the text goes to E.164.
  const before = texts.length
  await continueAs(page, '(415) 555-0142')
  await form(page).locator('button[type="submit"]').click()
  const code = await codeFor('+14155550142', before)
  await codeForm(page).waitFor()
  expect(await signin(page).locator('[part~="message"]').textContent()).toContain('We sent a code to (415) 555-0142.')
  expect(await codeForm(page).locator('input[name="code"]').getAttribute('autocomplete')).toBe('one-time-code')
  expect(await codeForm(page).locator('input[name="code"]').getAttribute('inputmode')).toBe('numeric')

  // A wrong code: said under the code form, still signed out.
  await codeForm(page).locator('input[name="code"]').fill(code === '000000' ? '111111' : '000000')
  await codeForm(page).locator('button[type="submit"]').click()
  await expect.poll(() => codeForm(page).locator('[part~="error"]').count()).toBe(1)
  expect(await statusOf(page)).toBe('unauthenticated')

  await codeForm(page).locator('input[name="code"]').fill(code)
  await codeForm(page).locator('button[type="submit"]').click()
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  const first = await page.evaluate(() => window.client.session!.user.id)
  expect(await page.evaluate(() => window.client.session!.amr)).toEqual(['sms'])

  // Signed out, the same number (typed in E.164 this time) signs the same user in.
  await page.evaluate(() => window.client.signOut({ redirect: false }))
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  const again = texts.length
  await continueAs(page, '+1 415 555 0142')
  await form(page).locator('button[type="submit"]').click()
  await codeForm(page).locator('input[name="code"]').fill(await codeFor('+14155550142', again))
  await codeForm(page).locator('button[type="submit"]').click()
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  expect(await page.evaluate(() => window.client.session!.user.id)).toBe(first)
  await context.close()
})

test('the SDK: client.phone.send texts a code, client.phone.verify signs in with it and refuses a wrong one', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url)
  const before = texts.length
  await page.evaluate(() => window.client.phone.send({ phone: '+1 415 555 0199' }))
  const code = await codeFor('+14155550199', before)
  const wrong = code === '000000' ? '111111' : '000000'
  const refused = await page.evaluate((wrong) => window.client.phone.verify({ phone: '+14155550199', code: wrong }).then(() => 'signed in', (e: { code?: string }) => e.code), wrong)
  expect(refused).toBe('InvalidCode')
  expect(await statusOf(page)).toBe('unauthenticated')
  const result = await page.evaluate((code) => window.client.phone.verify({ phone: '+14155550199', code, callbackUrl: '/after' }), code)
  expect(result).toMatchObject({ ok: true, url: expect.stringMatching(/\/after$/) })
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  expect(await page.evaluate(() => window.client.session!.amr)).toEqual(['sms'])
  await context.close()
})
