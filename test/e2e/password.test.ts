/**
 * Email-and-password accounts in Chromium, through `<latchkey-signin>`, against the real server
 * (`Password()` on the test app, its emails read from `passwordOutbox`, the breached-password
 * check against a local range server): sign up, confirm with the emailed code, sign in; a sign-in
 * before confirming, "Send the email again" and its new code; the emailed link instead; forgot, reset by code, the old
 * password refused and the new one taken, another browser signed in before the reset signed out
 * after it; the policy's refusals in words; the keyboard alone from "Create an account" to signed in;
 * `client.password.status()` and `set()` signed in.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import type { PasswordEmail } from '../../src/providers/password.js'
import { startRangeServer } from '../support/range-server.js'
import { browserAndServer, continueAs, openPage, statusOf, userName } from './helpers.js'

const breachedPassword = 'correct horse battery staple'
const range = await startRangeServer({ breached: { [breachedPassword]: 4242 } })
afterAll(() => range.close())
const updateAge = 2 // seconds: the due window, so another browser learns its session ended soon
const env = browserAndServer({ password: { breached: { endpoint: range.endpoint } }, maxAge: 600, updateAge })

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)
const input = (page: Page, form: string, name: string) => part(page, form).locator(`input[name="${name}"]`)
const submit = (page: Page, form: string) => part(page, form).locator('button[type="submit"]')
const errorText = (page: Page) => part(page, 'error').textContent()
const messageText = async (page: Page) => (await part(page, 'message').textContent())?.trim()

/** The newest email of `kind` to `to`, once it is there. */
async function mail(to: string, kind: PasswordEmail['kind'], after = 0): Promise<PasswordEmail> {
  const find = () => env.server.passwordOutbox.slice(after).findLast((m) => m.to === to && m.kind === kind)
  await expect.poll(() => !!find()).toBe(true)
  return find()!
}

/** Whether the focus is on `selector` inside the element's shadow root. */
const focused = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const root = document.querySelector('latchkey-signin')!.shadowRoot!
    return !!root.activeElement && root.activeElement === root.querySelector(s)
  }, selector)

async function signInWithPassword(page: Page, email: string, password: string) {
  await continueAs(page, email)
  await input(page, 'password-form', 'password').fill(password)
  await submit(page, 'password-form').click()
}

/** Signs up `email` in the element and confirms it with the emailed code: back at the sign-in form. */
async function signUp(page: Page, email: string, password: string) {
  await part(page, 'signup').click()
  await input(page, 'signup-form', 'email').fill(email)
  await input(page, 'signup-form', 'password').fill(password)
  await submit(page, 'signup-form').click()
  const { code } = await mail(email, 'verify-email')
  await input(page, 'verify-form', 'code').fill(code!)
  await submit(page, 'verify-form').click()
  await expect.poll(() => messageText(page)).toMatch(/Your address is confirmed: sign in\./)
}

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext()
  return { context, page: await openPage(context, env.server.url + '/') }
}

test('sign up in the element, confirm with the code from the email, then sign in', async () => {
  const { context, page } = await fresh()
  // The sign-in form of the password provider, with the autocomplete values password managers read.
  await continueAs(page, 'someone@example.com')
  expect(await input(page, 'password-form', 'email').getAttribute('autocomplete')).toBe('username')
  expect(await input(page, 'password-form', 'email').getAttribute('type')).toBe('email')
  expect(await input(page, 'password-form', 'password').getAttribute('autocomplete')).toBe('current-password')
  expect(await part(page, 'forgot').textContent()).toBe('Forgot password?')
  await part(page, 'ways-step').locator('[part~="back"]').click()

  await part(page, 'signup').click()
  // The sign-up step stands in place of the forms, the focus in its first field.
  expect(await part(page, 'password-form').isVisible()).toBe(false)
  expect(await focused(page, '[part~="signup-form"] input[name="email"]')).toBe(true)
  expect(await input(page, 'signup-form', 'email').getAttribute('autocomplete')).toBe('username')
  expect(await input(page, 'signup-form', 'name').getAttribute('autocomplete')).toBe('name')
  expect(await input(page, 'signup-form', 'name').getAttribute('required')).toBe(null)
  const chosen = input(page, 'signup-form', 'password')
  expect(await chosen.getAttribute('autocomplete')).toBe('new-password')
  expect(await chosen.getAttribute('minlength')).toBe('8')

  await input(page, 'signup-form', 'email').fill('ada@example.com')
  await input(page, 'signup-form', 'name').fill('Ada')
  await chosen.fill('a long new passphrase')
  await submit(page, 'signup-form').click()
  await expect.poll(() => messageText(page)).toMatch(/^Check your email: we sent a link and a code to confirm your address\./)
  expect(await focused(page, '[part~="verify-form"] input[name="code"]')).toBe(true)
  expect(await input(page, 'verify-form', 'code').getAttribute('autocomplete')).toBe('one-time-code')

  const email = await mail('ada@example.com', 'verify-email')
  expect(email.code).toMatch(/^\d{6}$/)
  // A wrong code is refused in words, under the code form.
  await input(page, 'verify-form', 'code').fill(email.code === '000000' ? '111111' : '000000')
  await submit(page, 'verify-form').click()
  await expect.poll(() => errorText(page)).toBe('That code is not right. Check it and try again.')
  expect(await input(page, 'verify-form', 'code').getAttribute('aria-describedby')).toBe('error')

  await input(page, 'verify-form', 'code').fill(email.code!)
  await submit(page, 'verify-form').click()
  await expect.poll(() => messageText(page)).toBe('Your address is confirmed: sign in.')
  // Back at the sign-in form with the address filled, the focus in the password field.
  expect(await input(page, 'password-form', 'email').inputValue()).toBe('ada@example.com')
  expect(await focused(page, '[part~="password-form"] input[name="password"]')).toBe(true)
  await input(page, 'password-form', 'password').fill('a long new passphrase')
  await submit(page, 'password-form').click()
  await expect.poll(() => userName(page).textContent()).toBe('Ada')
  await context.close()
})

test('a sign-in before the address is confirmed says so, sends the email again, and its new code confirms', async () => {
  const { context, page } = await fresh()
  await part(page, 'signup').click()
  await input(page, 'signup-form', 'email').fill('bo@example.com')
  await input(page, 'signup-form', 'password').fill('bo has a password')
  await submit(page, 'signup-form').click()
  const first = await mail('bo@example.com', 'verify-email')
  await part(page, 'back').click()
  expect(await focused(page, 'input[part~="identifier"]')).toBe(true)

  await signInWithPassword(page, 'bo@example.com', 'bo has a password')
  await expect.poll(() => errorText(page)).toMatch(/^Confirm your email address first/)
  expect(await statusOf(page)).toBe('unauthenticated')
  expect(await focused(page, '[part~="verify-form"] input[name="code"]')).toBe(true)

  const sent = env.server.passwordOutbox.length
  await part(page, 'resend').click()
  await expect.poll(() => messageText(page)).toMatch(/^We sent a new email to bo@example\.com\./)
  const second = await mail('bo@example.com', 'verify-email', sent)
  expect(second).not.toBe(first)
  await input(page, 'verify-form', 'code').fill(second.code!)
  await submit(page, 'verify-form').click()
  await expect.poll(() => messageText(page)).toBe('Your address is confirmed: sign in.')
  // The password typed before is still there: the sign-in button has the focus.
  expect(await input(page, 'password-form', 'password').inputValue()).toBe('bo has a password')
  expect(await focused(page, '[part~="password-form"] button[type="submit"]')).toBe(true)
  await submit(page, 'password-form').click()
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await context.close()
})

test("the confirmation email's link confirms the address: back at the sign-in page, the element says so", async () => {
  const { context, page } = await fresh()
  await part(page, 'signup').click()
  await input(page, 'signup-form', 'email').fill('flo@example.com')
  await input(page, 'signup-form', 'password').fill('flo signs up here')
  await submit(page, 'signup-form').click()
  const { url } = await mail('flo@example.com', 'verify-email')
  // The link's page does nothing by being opened; its button confirms.
  await page.goto(url!)
  await page.getByRole('button', { name: 'Confirm my address' }).click()
  await page.waitForFunction(() => window.ready === true)
  expect(new URL(page.url()).searchParams.get('notice')).toBe('email-verified')
  await expect.poll(() => messageText(page)).toBe('Your address is confirmed: sign in.')
  await signInWithPassword(page, 'flo@example.com', 'flo signs up here')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await context.close()
})

test('forgot, reset by code: the old password is refused, the new one works, and another browser is signed out', async () => {
  const { context, page } = await fresh()
  await signUp(page, 'cy@example.com', 'the first password')
  // Another browser signs in before the reset.
  const other = await fresh()
  await signInWithPassword(other.page, 'cy@example.com', 'the first password')
  await expect.poll(() => statusOf(other.page)).toBe('authenticated')
  expect((await other.context.request.get(env.server.url + '/api/me')).status()).toBe(200)

  await part(page, 'forgot').click()
  expect(await focused(page, '[part~="forgot-form"] input[name="email"]')).toBe(true)
  // The address typed into the sign-in form comes along.
  expect(await input(page, 'forgot-form', 'email').inputValue()).toBe('cy@example.com')
  expect(await part(page, 'reset-form').isVisible()).toBe(false)
  await submit(page, 'forgot-form').click()
  await expect.poll(() => part(page, 'reset-form').isVisible()).toBe(true)
  expect(await messageText(page)).toMatch(/^Check your email: if cy@example\.com has a password here/)
  expect(await focused(page, '[part~="reset-form"] input[name="code"]')).toBe(true)
  expect(await input(page, 'reset-form', 'code').getAttribute('autocomplete')).toBe('one-time-code')
  const newPassword = input(page, 'reset-form', 'password')
  expect(await newPassword.getAttribute('autocomplete')).toBe('new-password')

  const reset = await mail('cy@example.com', 'reset-password')
  await input(page, 'reset-form', 'code').fill(reset.code!)
  await newPassword.fill('the second password')
  await submit(page, 'reset-form').click()
  await expect.poll(() => messageText(page)).toBe('Your password is changed: sign in with it.')
  expect(await input(page, 'password-form', 'email').inputValue()).toBe('cy@example.com')
  expect(await input(page, 'password-form', 'password').inputValue()).toBe('')

  // The other browser's session ended with the reset: the server refuses it, and its page learns by its next due read.
  expect((await other.context.request.get(env.server.url + '/api/me')).status()).toBe(401)
  await expect.poll(() => statusOf(other.page), { timeout: (updateAge + 8) * 1000 }).toBe('unauthenticated')

  await signInWithPassword(page, 'cy@example.com', 'the first password')
  await expect.poll(() => errorText(page)).toBe('Sign in failed. Check the details you provided are correct.')
  expect(await statusOf(page)).toBe('unauthenticated')
  await input(page, 'password-form', 'password').fill('the second password')
  await submit(page, 'password-form').click()
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await Promise.all([context.close(), other.context.close()])
})

test("the policy's refusals are said in words under the form, and change nothing", async () => {
  const { context, page } = await fresh()
  await part(page, 'signup').click()
  await input(page, 'signup-form', 'email').fill('di@example.com')
  // Four emoji are eight UTF-16 units (the browser's minlength passes) but four characters: too short.
  await input(page, 'signup-form', 'password').fill('😀😀😀😀')
  await submit(page, 'signup-form').click()
  await expect.poll(() => errorText(page)).toBe('Use at least 8 characters.')
  expect(await input(page, 'signup-form', 'password').getAttribute('aria-describedby')).toBe('error')
  await input(page, 'signup-form', 'password').fill(breachedPassword)
  await submit(page, 'signup-form').click()
  await expect.poll(() => errorText(page)).toBe('This password has appeared in a data breach. Choose another one.')
  // Still the sign-up step, and no email went out.
  expect(await part(page, 'signup-form').isVisible()).toBe(true)
  expect(env.server.passwordOutbox.some((m) => m.to === 'di@example.com')).toBe(false)
  await context.close()
})

test('the keyboard alone: "Create an account", the fields, the code, then the sign-in', async () => {
  const { context, page } = await fresh()
  await page.bringToFront()
  // From the top of the page, Tab to "Create an account".
  await page.mouse.click(1, 1)
  for (let i = 0; i < 40 && !(await focused(page, '[part~="signup"]')); i++) await page.keyboard.press('Tab')
  expect(await focused(page, '[part~="signup"]')).toBe(true)
  await page.keyboard.press('Enter')
  expect(await focused(page, '[part~="signup-form"] input[name="email"]')).toBe(true)
  await page.keyboard.type('eve@example.com')
  await page.keyboard.press('Tab')
  await page.keyboard.type('Eve')
  await page.keyboard.press('Tab')
  await page.keyboard.type('eve types a password')
  await page.keyboard.press('Enter')
  const { code } = await mail('eve@example.com', 'verify-email')
  await expect.poll(() => focused(page, '[part~="verify-form"] input[name="code"]')).toBe(true)
  await page.keyboard.type(code!)
  await page.keyboard.press('Enter')
  await expect.poll(() => focused(page, '[part~="password-form"] input[name="password"]')).toBe(true)
  await page.keyboard.type('eve types a password')
  await page.keyboard.press('Enter')
  await expect.poll(() => userName(page).textContent()).toBe('Eve')
  await context.close()
})

test('client.password signed in: status() says there is a password, set() changes it (the current one asked), a refusal has its code', async () => {
  const { context, page } = await fresh()
  await signUp(page, 'gus@example.com', 'gus first password')
  await input(page, 'password-form', 'password').fill('gus first password')
  await submit(page, 'password-form').click()
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  expect(await page.evaluate(() => window.client.password.status())).toEqual({ hasPassword: true })
  const refused = await page.evaluate(() => window.client.password.set({ password: 'gus second password', currentPassword: 'not it at all' }).then(() => 'set', (e) => e.code))
  expect(refused).toBe('CredentialsSignin')
  const tooShort = await page.evaluate(() => window.client.password.set({ password: 'short', currentPassword: 'gus first password' }).then(() => 'set', (e) => e.code))
  expect(tooShort).toBe('PasswordTooShort')
  expect(await page.evaluate(() => window.client.password.set({ password: 'gus second password', currentPassword: 'gus first password' }))).toEqual({ hasPassword: true })
  // Still signed in here (a change ends the other sessions only), and the new password is the one now.
  expect(await statusOf(page)).toBe('authenticated')
  expect((await context.request.get(env.server.url + '/api/me')).status()).toBe(200)
  const other = await fresh()
  await signInWithPassword(other.page, 'gus@example.com', 'gus second password')
  await expect.poll(() => statusOf(other.page)).toBe('authenticated')
  await Promise.all([context.close(), other.context.close()])
})
