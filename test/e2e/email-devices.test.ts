/**
 * Email sign-in in Chromium, with the mail going through a real SMTP server: a link asked for in
 * one browser and opened in another (another device, or a mail scanner's fetch before it) shows
 * its page, and only its button signs that browser in; the code from the same email, typed where
 * the address was, signs that browser in; wrong codes burn it; an expired one says so.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { browserAndServer, openPage, sendSignInEmail, statusOf, userName } from './helpers.js'

let smtp: SmtpSink
beforeAll(async () => void (smtp = await startSmtpSink()))
afterAll(() => smtp?.close())
const env = browserAndServer(() => ({ smtpPort: smtp.port }))

/** A new browser asks for an email to `email` through the element; answers its page once "Check your email" shows. */
async function ask(email: string): Promise<Page> {
  const page = await openPage(await env.browser.newContext(), env.server.url + '/')
  await sendSignInEmail(page, email)
  await expect.poll(() => page.locator('latchkey-signin [part="message"]').textContent()).toContain(`a sign-in link and a code were sent to ${email}`)
  await expect.poll(() => smtp.mails.some((m) => m.to.includes(email))).toBe(true)
  return page
}

const codeInput = (page: Page) => page.locator('latchkey-signin form[part~="code-form"] input[name="code"]')
const codeError = (page: Page) => page.locator('latchkey-signin form[part~="code-form"] [part="error"]')

async function typeCode(page: Page, code: string) {
  await codeInput(page).fill(code)
  await page.locator('latchkey-signin form[part~="code-form"] button').click()
}

test('a link opened on another device shows its page, and the click signs that device in', async () => {
  const asking = await ask('grace@example.com')
  const link = env.server.outbox.at(-1)!.url

  // A scanner's fetch first: it reads the page and uses nothing.
  const scanned = await fetch(link, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; SafeLinks)' } })
  expect(scanned.status).toBe(200)
  expect(scanned.headers.getSetCookie()).toEqual([])

  const phone = await env.browser.newContext()
  const page = await phone.newPage()
  await page.goto(link)
  await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in as grace@example.com on this device?')
  expect(await phone.cookies()).toEqual([])
  await page.getByRole('button', { name: 'Sign in as grace@example.com' }).click()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => userName(page).textContent()).toBe('grace@example.com')
  // The browser that asked is not signed in by another device's click.
  expect(await statusOf(asking)).toBe('unauthenticated')
  await asking.context().close()
  await phone.close()
})

test('the code from the email, typed where the address was, signs that browser in', async () => {
  const page = await ask('ines@example.com')
  // The code field follows "Check your email", focused, for the browser's one-time-code autofill.
  expect(await codeInput(page).getAttribute('autocomplete')).toBe('one-time-code')
  expect(await codeInput(page).getAttribute('inputmode')).toBe('numeric')
  expect(await codeInput(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true)
  const code = smtp.codeFor('ines@example.com')
  expect(code).toMatch(/^\d{6}$/)
  // Pasted as a mail shows it to some, with a space in the middle: taken whole.
  // The SDK's call refuses with a typed error (here an address that was sent no code).
  expect(await page.evaluate(() => window.client.email.verify({ email: 'nobody@example.com', code: '123456' }).then(() => 'signed in', (e) => e.code))).toBe('InvalidCode')
  await typeCode(page, `${code.slice(0, 3)} ${code.slice(3)}`)
  await expect.poll(() => userName(page).textContent()).toBe('ines@example.com')
  await page.context().close()
})

test('five wrong codes burn it: the right one then says to ask again', async () => {
  const page = await ask('jon@example.com')
  const code = smtp.codeFor('jon@example.com')
  const wrong = code === '000000' ? '111111' : '000000'
  const said: string[] = []
  for (let i = 0; i < 5; i++) {
    await typeCode(page, wrong)
    await expect.poll(() => codeError(page).isVisible()).toBe(true)
    said.push((await codeError(page).textContent())!)
  }
  expect(said.slice(0, 4).every((s) => s.startsWith('That code is not right'))).toBe(true)
  expect(said[4]).toMatch(/^Too many wrong codes/)
  // The error is tied to the field it is about.
  expect(await codeInput(page).getAttribute('aria-describedby')).toBe('error')
  await typeCode(page, code)
  await expect.poll(() => codeError(page).textContent()).toMatch(/^Too many wrong codes/)
  expect(await statusOf(page)).toBe('unauthenticated')
  await page.context().close()
})

test('an expired code is refused with its own message', async () => {
  const page = await ask('kim@example.com')
  env.server.advance(10 * 60_000 + 1000)
  await typeCode(page, smtp.codeFor('kim@example.com'))
  await expect.poll(() => codeError(page).textContent()).toMatch(/^That code has expired/)
  expect(await statusOf(page)).toBe('unauthenticated')
  await page.context().close()
})
