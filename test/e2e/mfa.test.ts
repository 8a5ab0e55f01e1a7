/**
 * Second factors in Chromium, through the elements, against the real server: an authenticator app
 * set up in `<latchkey-mfa>` (its key read from the otpauth:// link, its codes computed here by an
 * independent RFC 6238 implementation), then a password sign-in that asks for the code in
 * `<latchkey-signin>`; a code good once; a recovery code good once; removal; the keyboard alone;
 * an email-link sign-in that comes back asking for the code; new recovery codes that ask for a code
 * and, in a stale session, to confirm first;
 * a passkey as the second factor (Chromium's virtual authenticator) and "don't ask again on this
 * device" in one browser context and not in another.
 */
import { readFile } from 'node:fs/promises'
import type { BrowserContext, Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { secretOf, totp } from '../support/totp.js'
import { browserAndServer, openPage, sendSignInEmail, signInWithForm, statusOf, userName } from './helpers.js'
import { openWithAuthenticator } from '../webauthn/support/browser.js'

const env = browserAndServer({ mfa: true, maxAge: 7 * 86400, updateAge: 86400 })

const mfa = (page: Page) => page.locator('latchkey-mfa')
const step = (page: Page) => page.locator('latchkey-signin [part~="mfa-step"]')
const stepInput = (page: Page) => step(page).locator('input[name="code"], input[name="recoveryCode"]')
const stepError = (page: Page) => step(page).locator('[part="error"]')
/** The code the authenticator app shows now, by the server's clock. */
const codeNow = (secret: string) => totp(secret, env.server.now())
/** Whether the focus is on `selector` inside `host`'s shadow root. */
const focusedIn = (page: Page, host: string, selector: string) =>
  page.evaluate(([h, s]) => {
    const root = document.querySelector(h!)!.shadowRoot!
    return !!root.activeElement && root.activeElement === root.querySelector(s!)
  }, [host, selector])

async function signOut(page: Page) {
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
}

/** Sets up an authenticator app for `username` through `<latchkey-mfa>`; answers the key and the recovery codes shown. */
async function enrol(context: BrowserContext, username: string, opened?: Page): Promise<{ page: Page; secret: string; codes: string[] }> {
  const page = opened ?? (await openPage(context, env.server.url + '/'))
  await signInWithForm(page, username)
  await mfa(page).locator('button[part~="enroll"]').click()
  const link = mfa(page).locator('a[part="link"]')
  await expect.poll(() => link.textContent()).toBe('Open in an authenticator app')
  const uri = (await link.getAttribute('href'))!
  expect(uri).toMatch(/^otpauth:\/\/totp\//)
  const secret = secretOf(uri)
  await mfa(page).locator('form[part~="enroll-form"] input').fill(codeNow(secret))
  await mfa(page).locator('form[part~="enroll-form"] button[type="submit"]').click()
  const shown = mfa(page).locator('[part="codes"] li')
  await expect.poll(() => shown.count()).toBe(10)
  const codes = await shown.allTextContents()
  // The code just used is spent: the next one comes from the app's next step.
  env.server.advance(30_000)
  return { page, secret, codes }
}

test('set up an app in <latchkey-mfa>; a password sign-in then asks for its code, and the code signs in', async () => {
  const context = await env.browser.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await openPage(context, env.server.url + '/')
  // Signed out, there is nothing to manage.
  expect(await mfa(page).locator('button').count()).toBe(0)
  await signInWithForm(page, 'ada')
  await mfa(page).locator('button[part~="enroll"]').click()
  // The QR code is an image that loads, the key is shown in groups of four, the focus is in the code field.
  const qr = mfa(page).locator('img[part="qr"]')
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  const secret = secretOf((await mfa(page).locator('a[part="link"]').getAttribute('href'))!)
  expect((await mfa(page).locator('[part="secret"] code').textContent())!.replaceAll(' ', '')).toBe(secret)
  expect(await mfa(page).locator('[part="secret"] code').textContent()).toMatch(/^(\w{4} )+\w{1,4}$/)
  expect(await focusedIn(page, 'latchkey-mfa', 'form[part~="enroll-form"] input')).toBe(true)

  await mfa(page).locator('form[part~="enroll-form"] input').fill(codeNow(secret))
  await mfa(page).locator('form[part~="enroll-form"] button[type="submit"]').click()
  const shown = mfa(page).locator('[part="codes"] li')
  await expect.poll(() => shown.count()).toBe(10)
  const codes = await shown.allTextContents()
  expect(new Set(codes).size).toBe(10)
  expect(await mfa(page).locator('[part="factor"] [part="name"]').allTextContents()).toEqual(['Authenticator app'])
  expect(await mfa(page).locator('[part="count"]').textContent()).toBe('Recovery codes left: 10')
  // Copy puts every code on the clipboard; Download saves them as a text file.
  await mfa(page).locator('button[part~="copy"]').click()
  await expect.poll(() => mfa(page).locator('[part="recovery-codes"] [role="status"]').textContent()).toBe('Copied.')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  const downloading = page.waitForEvent('download')
  await mfa(page).locator('a[part~="download"]').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('recovery-codes.txt')
  const saved = await readFile((await download.path())!, 'utf8')
  for (const code of codes) {
    expect(copied).toContain(code)
    expect(saved).toContain(code)
  }

  // Signing out takes the codes off the screen.
  await signOut(page)
  expect(await mfa(page).locator('[part="codes"]').count()).toBe(0)

  env.server.advance(30_000)
  await signInWithForm(page, 'ada')
  await expect.poll(() => step(page).isVisible()).toBe(true)
  expect(await step(page).locator('h2').textContent()).toBe('Two-step verification')
  expect(await page.locator('latchkey-signin form[part~="credentials-form"]').isVisible()).toBe(false)
  expect(await statusOf(page)).toBe('unauthenticated')
  expect(await stepInput(page).getAttribute('autocomplete')).toBe('one-time-code')
  expect(await stepInput(page).getAttribute('inputmode')).toBe('numeric')
  expect(await page.getByLabel('Code from your authenticator app').count()).toBe(1)
  expect(await focusedIn(page, 'latchkey-signin', '[part~="mfa-step"] input')).toBe(true)

  await stepInput(page).fill(codeNow(secret))
  await step(page).locator('button[type="submit"]').click()
  await expect.poll(() => userName(page).textContent()).toBe('ada')
  expect(await page.evaluate(() => window.client.session?.amr)).toEqual(['pwd', 'otp', 'mfa'])
  expect(await step(page).count()).toBe(0)
  // The codes are not shown again; the count stays.
  await expect.poll(() => mfa(page).locator('[part="count"]').textContent()).toBe('Recovery codes left: 10')
  expect(await mfa(page).locator('[part="codes"]').count()).toBe(0)
  await context.close()
})

test('a code used once is refused in a new sign-in as used already, a wrong one as not right, with the words under the field; "Start over" goes back to the forms', async () => {
  const context = await env.browser.newContext()
  const { page, secret } = await enrol(context, 'bea')
  await signOut(page)
  const code = codeNow(secret)
  await signInWithForm(page, 'bea')
  await stepInput(page).fill(code)
  await step(page).locator('button[type="submit"]').click()
  await expect.poll(() => userName(page).textContent()).toBe('bea')
  await signOut(page)

  await signInWithForm(page, 'bea')
  await stepInput(page).fill(code)
  await step(page).locator('button[type="submit"]').click()
  await expect.poll(() => stepError(page).textContent()).toBe('That code was used already. Wait for your authenticator app to show the next one, then enter it.')
  expect(await stepError(page).isVisible()).toBe(true)
  await stepInput(page).fill(code === '000000' ? '111111' : '000000')
  await step(page).locator('button[type="submit"]').click()
  await expect.poll(() => stepError(page).textContent()).toBe('That code is not right. Check it and try again.')
  expect(await stepError(page).isVisible()).toBe(true)
  expect(await stepInput(page).getAttribute('aria-describedby')).toBe(await stepError(page).getAttribute('id'))
  expect(await statusOf(page)).toBe('unauthenticated')

  await step(page).locator('button[part~="start-over"]').click()
  expect(await step(page).count()).toBe(0)
  await expect.poll(() => page.locator('latchkey-signin form[part~="credentials-form"]').isVisible()).toBe(true)
  expect(await page.locator('latchkey-signin [part="error"]').isVisible()).toBe(false)
  await context.close()
})

test('after the fifth wrong code the step says it was the last try, and takes no more', async () => {
  const context = await env.browser.newContext()
  const { page, secret } = await enrol(context, 'ivy')
  await signOut(page)
  await signInWithForm(page, 'ivy')
  const wrong = codeNow(secret) === '000000' ? '111111' : '000000'
  for (let i = 1; i <= 5; i++) {
    await stepInput(page).fill(wrong)
    await step(page).locator('button[type="submit"]').click()
    const expected = i < 5 ? 'That code is not right. Check it and try again.' : 'That code is not right, and that was the last try. Start over and sign in again.'
    await expect.poll(() => stepError(page).textContent()).toBe(expected)
  }
  expect(await stepInput(page).isDisabled()).toBe(true)
  expect(await step(page).locator('button[type="submit"]').isVisible()).toBe(false)
  await step(page).locator('button[part~="start-over"]').click()
  await expect.poll(() => page.locator('latchkey-signin form[part~="credentials-form"]').isVisible()).toBe(true)
  await context.close()
})

test('a recovery code signs in once', async () => {
  const context = await env.browser.newContext()
  const { page, codes } = await enrol(context, 'cy')
  await signOut(page)
  const useRecovery = async (code: string) => {
    await signInWithForm(page, 'cy')
    await step(page).getByRole('button', { name: 'Use a recovery code instead' }).click()
    expect(await page.getByLabel('Recovery code').count()).toBe(1)
    expect(await focusedIn(page, 'latchkey-signin', '[part~="mfa-step"] input')).toBe(true)
    await stepInput(page).fill(code)
    await step(page).locator('button[type="submit"]').click()
  }
  await useRecovery(codes[0]!)
  await expect.poll(() => userName(page).textContent()).toBe('cy')
  expect(await page.evaluate(() => window.client.session?.amr)).toEqual(['pwd', 'recovery', 'mfa'])
  await expect.poll(() => mfa(page).locator('[part="count"]').textContent()).toBe('Recovery codes left: 9')
  await signOut(page)

  await useRecovery(codes[0]!)
  await expect.poll(() => stepError(page).textContent()).toBe('That code is not right. Check it and try again.')
  expect(await statusOf(page)).toBe('unauthenticated')
  await step(page).locator('button[part~="start-over"]').click()
  await useRecovery(codes[1]!)
  await expect.poll(() => userName(page).textContent()).toBe('cy')
  await context.close()
})

test('removing the app takes a code from it; the next sign-in asks for nothing', async () => {
  const context = await env.browser.newContext()
  const { page, secret } = await enrol(context, 'dee')
  await mfa(page).locator('button[part~="done"]').click()
  await mfa(page).getByRole('button', { name: 'Remove Authenticator app' }).click()
  const form = mfa(page).locator('form[part~="remove-form"]')
  expect(await focusedIn(page, 'latchkey-mfa', 'form[part~="remove-form"] input')).toBe(true)
  // A wrong code removes nothing, and says so under the field.
  await form.locator('input').fill(codeNow(secret) === '000000' ? '111111' : '000000')
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => form.locator('[part="error"]').textContent()).toBe('That code is not right. Check it and try again.')
  expect(await form.locator('input').getAttribute('aria-describedby')).toBe('error')
  expect(await mfa(page).locator('[part="factor"]').count()).toBe(1)

  await form.locator('input').fill(codeNow(secret))
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => mfa(page).locator('[part="factor"]').count()).toBe(0)
  expect(await mfa(page).locator('[part="count"]').isVisible()).toBe(false)
  expect(await mfa(page).locator('button[part~="renew"]').isVisible()).toBe(false)
  await signOut(page)

  await signInWithForm(page, 'dee')
  await expect.poll(() => userName(page).textContent()).toBe('dee')
  expect(await page.evaluate(() => window.client.session?.amr)).toEqual(['pwd'])
  expect(await step(page).count()).toBe(0)
  await context.close()
})

test('the keyboard alone completes the second step: Tab to the field, type, Enter', async () => {
  const context = await env.browser.newContext()
  const { page, secret } = await enrol(context, 'eli')
  await signOut(page)
  await signInWithForm(page, 'eli')
  await expect.poll(() => step(page).isVisible()).toBe(true)
  // Start from the top of the page (a click there): the first Tab stop is the code field.
  await page.mouse.click(1, 1)
  expect(await focusedIn(page, 'latchkey-signin', '[part~="mfa-step"] input')).toBe(false)
  await page.keyboard.press('Tab')
  expect(await focusedIn(page, 'latchkey-signin', '[part~="mfa-step"] input')).toBe(true)
  await page.keyboard.type(codeNow(secret))
  await page.keyboard.press('Enter')
  await expect.poll(() => userName(page).textContent()).toBe('eli')
  await context.close()
})

test('an email link that comes back with ?error=SecondFactorRequired opens on the second step', async () => {
  const context = await env.browser.newContext()
  const { page, secret } = await enrol(context, 'fay')
  await signOut(page)
  // Fay proved her address before she set up the app: a first proof now would remove it (sign-in/first-proof.ts).
  await env.server.adapter.updateUser!({ id: 'user-fay', emailVerified: new Date(env.server.now()) })
  await sendSignInEmail(page, 'fay@example.com')
  await expect.poll(() => env.server.outbox.some((m) => m.identifier === 'fay@example.com')).toBe(true)
  await page.goto(env.server.outbox.findLast((m) => m.identifier === 'fay@example.com')!.url)
  await page.waitForFunction(() => window.ready === true)
  expect(new URL(page.url()).searchParams.get('error')).toBe('SecondFactorRequired')
  await expect.poll(() => step(page).isVisible()).toBe(true)
  expect(await statusOf(page)).toBe('unauthenticated')
  // With `redirect`, the page goes where the sign-in lands once the code is taken.
  await page.evaluate(() => {
    const signIn = document.querySelector('latchkey-signin')!
    signIn.setAttribute('redirect', '')
    signIn.setAttribute('callback-url', '/?landed')
  })
  await stepInput(page).fill(codeNow(secret))
  await step(page).locator('button[type="submit"]').click()
  await page.waitForURL((url) => url.search === '?landed')
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => userName(page).textContent()).toBe('fay')
  expect(await page.evaluate(() => window.client.session?.amr)).toEqual(['email', 'otp', 'mfa'])
  await context.close()
})

test('new recovery codes ask for a code from the app, and a stale session to confirm first: latchkey-confirm-needed', async () => {
  const context = await env.browser.newContext()
  const { page, secret, codes: before } = await enrol(context, 'gus')
  await page.evaluate(() => {
    ;(window as unknown as { asked: number }).asked = 0
    document.addEventListener('latchkey-confirm-needed', () => (window as unknown as { asked: number }).asked++)
  })
  env.server.advance(3600_000 + 1000)
  const renew = async () => {
    await mfa(page).locator('button[part~="renew"]').click()
    await expect.poll(() => focusedIn(page, 'latchkey-mfa', 'form[part~="renew-form"] input')).toBe(true)
    return mfa(page).locator('form[part~="renew-form"]')
  }
  let form = await renew()
  expect(await form.locator('[part="message"]').textContent()).toBe('To make new recovery codes, enter a code from your authenticator app, or a recovery code.')
  await form.locator('input').fill(codeNow(secret))
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(1)
  expect(await form.locator('[part="error"]').textContent()).toMatch(/^Confirm it's you/)
  expect(await mfa(page).locator('[part="codes"]').count()).toBe(0)

  // "Confirm it's you" (the user's own session: no second factor asked), then again.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-signin confirm id="confirm"></latchkey-signin>'))
  await signInWithForm(page, 'gus', 'secret', '#confirm')
  await expect.poll(() => page.evaluate(() => window.client.session?.amr)).toEqual(['pwd'])
  // The new sign-in makes the element read its list again, which closes what was open: let it land first.
  await env.server.idle()
  // A fresh session alone is not enough: a wrong code renews nothing, and says so under the field.
  form = await renew()
  await form.locator('input').fill(codeNow(secret) === '000000' ? '111111' : '000000')
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => form.locator('[part="error"]').textContent()).toBe('That code is not right. Check it and try again.')
  // The app's code: a new set, none of the old ones.
  await form.locator('input').fill(codeNow(secret))
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => mfa(page).locator('[part="codes"] li').count()).toBe(10)
  expect((await mfa(page).locator('[part="codes"] li').allTextContents()).some((c) => before.includes(c))).toBe(false)
  expect(await mfa(page).locator('[part="error"]').isVisible()).toBe(false)
  await context.close()
})

test('the drop-in script registers <latchkey-mfa> too', async () => {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  await page.goto(env.server.url + '/drop-in.html?nosw')
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-mfa></latchkey-mfa>'))
  await signInWithForm(page, 'hal')
  await expect.poll(() => mfa(page).locator('button[part~="enroll"]').textContent()).toBe('Set up an authenticator app')
  await context.close()
})

test('a passkey answers the second step; "don\'t ask again" skips it in that browser only, until forgotten', async () => {
  // This browser has an authenticator and the passkey client (`?passkey`).
  const { page } = await openWithAuthenticator(env.browser, env.server.url + '/?passkey&nosw')
  const { secret } = await enrol(page.context(), 'kay', page)
  await page.evaluate(() => window.client.passkey.register())
  await expect.poll(async () => (await page.evaluate(() => window.client.passkey.list())).length).toBe(1)
  await signOut(page)

  await signInWithForm(page, 'kay')
  const passkey = step(page).locator('button[part~="passkey"]')
  const trust = step(page).locator('input[part~="trust-device"]')
  await expect.poll(() => passkey.isVisible()).toBe(true)
  expect(await step(page).locator('label[part~="trust"]').textContent()).toBe("Don't ask again on this device for 30 days")
  await trust.check()
  await passkey.click()
  await expect.poll(() => userName(page).textContent()).toBe('kay')
  const amr = await page.evaluate(() => window.client.getSession().then((s) => s?.amr))
  expect(amr).toEqual(['pwd', 'hwk', 'mfa'])

  // Listed in <latchkey-mfa> as this device.
  const device = mfa(page).locator('[part="device"]')
  await expect.poll(() => device.count()).toBe(1)
  expect(await device.locator('[part="name"]').textContent()).toMatch(/\(this device\)$/)

  // Signed out and in again here: no second step.
  await signOut(page)
  await signInWithForm(page, 'kay')
  await expect.poll(() => userName(page).textContent()).toBe('kay')
  expect(await step(page).count()).toBe(0)

  // Another browser context is asked, and answers with the app's code.
  const other = await env.browser.newContext()
  const elsewhere = await openPage(other, env.server.url + '/')
  await signInWithForm(elsewhere, 'kay')
  await expect.poll(() => step(elsewhere).isVisible()).toBe(true)
  expect(await statusOf(elsewhere)).toBe('unauthenticated')
  await stepInput(elsewhere).fill(codeNow(secret))
  await step(elsewhere).locator('button[type="submit"]').click()
  await expect.poll(() => userName(elsewhere).textContent()).toBe('kay')
  await other.close()

  // Forgotten in the list, this browser is asked again.
  await mfa(page).locator('[part="device"] button[part~="forget"]').click()
  await expect.poll(() => device.count()).toBe(0)
  await signOut(page)
  await signInWithForm(page, 'kay')
  await expect.poll(() => step(page).isVisible()).toBe(true)
  await page.context().close()
})
