/**
 * The demo site's account flows, walked as a person would (a file of their own so they run beside
 * demo.test.ts): a password account from sign-up to reset, and two-step sign-in.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { secretOf, totp } from '../support/totp.js'
import { demoSite } from './demo-site.js'
import { continueAs } from './helpers.js'

const { env, tab, status, signedInAs, signedOut, signOut, withAuthenticator, withCredentials } = demoSite()
let origin: string
let dataDir: string
beforeAll(() => ({ origin, dataDir } = env.server))

describe('the demo site: accounts', () => {
  test('password: sign up, the emailed link confirms, sign in; forgot and reset by code end the other session; the old password is refused', async () => {
    const email = `pat-${Date.now()}@example.com`
    const page = await tab()
    const signin = page.locator('latchkey-signin')
    const outbox = await page.context().newPage()
    /** The newest outbox letter to `email` whose subject starts so. */
    const letter = async (subject: string) => {
      // The outbox reloads itself when a letter arrives: a goto meeting that reload waits for it instead.
      await outbox.goto(origin + '/outbox').catch(async (e: Error) => {
        if (!/interrupted by another navigation to "[^"]*\/outbox"/.test(e.message)) throw e
        await outbox.waitForLoadState()
      })
      const item = outbox.locator('li.letter', { hasText: email }).filter({ hasText: subject }).first()
      await item.waitFor()
      return item
    }
    await signin.locator('button[part~="signup"]').click()
    const signup = signin.locator('form[part~="signup-form"]')
    await signup.locator('input[name=email]').fill(email)
    await signup.locator('input[name=password]').fill('pat first passphrase')
    await signup.locator('button[type=submit]').click()
    await signin.locator('form[part~="verify-form"]').waitFor()
    // The emailed link opens a page whose button confirms the address.
    await (await letter('Confirm your email address')).locator('a.mail-link').click()
    await outbox.locator('button', { hasText: 'Confirm my address' }).click()
    await outbox.waitForURL(/notice=email-verified/)
    await signin.locator('button[part~="back"]').click()
    const form = signin.locator('form[part~="password-form"]')
    const signInWith = async (p: Page, password: string) => {
      const f = p.locator('latchkey-signin form[part~="password-form"]')
      await continueAs(p, email)
      await f.locator('input[name=password]').fill(password)
      await f.locator('button[type=submit]').click()
    }
    await signInWith(page, 'pat first passphrase')
    await signedInAs(page, email)
    // Another browser signs in too.
    const other = await tab()
    await signInWith(other, 'pat first passphrase')
    await signedInAs(other, email)

    await signOut(page)
    await signin.locator('button[part~="forgot"]').click()
    const forgot = signin.locator('form[part~="forgot-form"]')
    await forgot.locator('input[name=email]').fill(email)
    await forgot.locator('button[type=submit]').click()
    const code = (await (await letter('Reset your password')).locator('b.code').textContent())!
    const reset = signin.locator('form[part~="reset-form"]')
    await reset.locator('input[name=code]').fill(code)
    await reset.locator('input[name=password]').fill('pat second passphrase')
    await reset.locator('button[type=submit]').click()
    // Changed: the element is back at its sign-in form, and says so.
    await signin.locator('[part~="message"]', { hasText: 'Your password is changed' }).first().waitFor()
    await signInWith(page, 'pat first passphrase')
    await form.locator('[part="error"]', { hasText: 'Sign in failed' }).waitFor()
    await signInWith(page, 'pat second passphrase')
    await signedInAs(page, email)
    // The reset ended the other browser's session: its next read says so.
    await other.reload()
    await signedOut(other)
    // The owner was told, in the outbox.
    await letter('Your password for')
    await page.context().close()
    await other.context().close()
  }, 60_000)

  test('two-step sign-in: an app set up, its code, a used code refused, a recovery code once, a passkey; "don\'t ask again" here and not elsewhere', async () => {
    const { context, page } = await withAuthenticator()
    await withCredentials(page)
    await signedInAs(page, 'demo@example.com')
    // The tests before this one asked for many passkey options from this address: where the demo's
    // rate limit (30 a minute) says so, wait as a person would, then ask again.
    const passkeys = page.locator('latchkey-profile latchkey-passkeys')
    for (;;) {
      await passkeys.locator('button[part~="add"]').click()
      const said = passkeys.locator('[part~="error"]', { hasText: /try again in \d+ seconds?/ })
      await expect.poll(async () => (await passkeys.locator('li[part="passkey"]').count()) + (await said.count())).toBe(1)
      const wait = /try again in (\d+) seconds?/.exec((await said.textContent().catch(() => null)) ?? '')
      if (!wait) break
      await new Promise((r) => setTimeout(r, (Number(wait[1]) + 1) * 1000))
    }
    // The secret is read from the QR code's otpauth:// URI; codes come from an independent RFC 6238.
    const mfa = page.locator('latchkey-mfa')
    await mfa.locator('button[part~="enroll"]').click()
    const secret = secretOf((await mfa.locator('a[part="link"]').getAttribute('href'))!)
    const used = totp(secret, Date.now())
    await mfa.locator('form[part~="enroll-form"] input').fill(used)
    await mfa.locator('form[part~="enroll-form"] button[type="submit"]').click()
    await expect.poll(() => mfa.locator('[part="codes"] li').count()).toBe(10)
    const [recovery, another] = await mfa.locator('[part="codes"] li').allTextContents()
    await mfa.locator('button[part~="done"]').click()
    await signOut(page)

    const step = page.locator('latchkey-signin [part~="mfa-step"]')
    const field = step.locator('input[name="code"], input[name="recoveryCode"]')
    const asked = async (p: Page) => {
      await withCredentials(p)
      await p.locator('latchkey-signin [part~="mfa-step"]').waitFor()
    }
    // The code that confirmed the app is spent; the next step's code (one step of skew is allowed) signs in.
    await asked(page)
    await field.fill(used)
    await step.locator('button[type="submit"]').click()
    await step.locator('[part="error"]', { hasText: 'That code was used already' }).waitFor()
    await field.fill(totp(secret, Date.now() + 30_000))
    await step.locator('button[type="submit"]').click()
    await signedInAs(page, 'demo@example.com')
    await signOut(page)
    // A recovery code once, then never again.
    for (const expected of ['signed in', 'refused']) {
      await asked(page)
      await step.locator('button[part~="switch"]').click()
      await field.fill(recovery!)
      await step.locator('button[type="submit"]').click()
      if (expected === 'refused') {
        await step.locator('[part="error"]', { hasText: 'That code is not right' }).waitFor()
        await step.locator('button[part~="start-over"]').click()
        break
      }
      await signedInAs(page, 'demo@example.com')
      await signOut(page)
    }
    // The passkey answers the step, and this browser is trusted.
    await asked(page)
    await step.locator('input[part~="trust-device"]').check()
    await step.locator('button[part~="passkey"]').click()
    await signedInAs(page, 'demo@example.com')
    await signOut(page)
    await withCredentials(page)
    await signedInAs(page, 'demo@example.com')
    // Another browser is asked.
    const elsewhere = await tab()
    await asked(elsewhere)
    expect(await elsewhere.locator('#panel-status').textContent()).toContain('Signed out')
    await elsewhere.context().close()
    // Leave the demo account as the other tests found it: the app removed (with a recovery code), no trusted device.
    // The profile's two-step section read the sign-in just made: it lists this browser.
    await mfa.locator('[part="device"] button[part~="forget"]').click()
    await mfa.locator('[part="factor"] button[part~="remove"]').click()
    await mfa.locator('form[part~="remove-form"] button[part~="switch"]').click()
    await mfa.locator('form[part~="remove-form"] input').fill(another!)
    await mfa.locator('form[part~="remove-form"] button[type="submit"]').click()
    await expect.poll(() => mfa.locator('[part="factor"]').count()).toBe(0)
    await context.close()
  }, 150_000)

})
