/**
 * <latchkey-signin> with the passkey client attached: the identifier field offers passkeys in the
 * browser's autofill, and the passkey button runs the ceremony. Chromium's virtual authenticator.
 */
import { describe, expect, it } from 'vitest'
import { openWithAuthenticator, optionsAnswered } from '../webauthn/support/browser.js'
import { browserAndServer, continueAs, settled } from './helpers.js'

const env = browserAndServer()

const registerAndSignOut = (email: string) =>
  `(async () => {
    await window.client.passkey.register({ email: ${JSON.stringify(email)} })
    await window.client.signOut({ redirect: false })
    return (await window.client.getSession())?.user?.email ?? null
  })()`

describe('<latchkey-signin> with passkeys', () => {
  it('marks the identifier field for passkey autofill and signs in from it', async () => {
    const { page } = await openWithAuthenticator(env.browser, `${env.server.url}/?passkey&nosw`)
    expect(await page.evaluate(registerAndSignOut('ada.autofill@example.com'))).toBeNull()
    await page.reload()
    await page.waitForFunction(() => window.ready === true)
    const username = page.locator('latchkey-signin input[part~="identifier"]')
    await expect.poll(() => username.getAttribute('autocomplete')).toBe('username webauthn')
    await username.focus()
    await expect.poll(() => page.evaluate(() => window.client.status), { timeout: 10_000 }).toBe('authenticated')
    expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('ada.autofill@example.com')
    await page.context().close()
  })

  it('the passkey button signs in', async () => {
    const { page } = await openWithAuthenticator(env.browser, `${env.server.url}/?passkey&nosw`)
    expect(await page.evaluate(registerAndSignOut('ada.button@example.com'))).toBeNull()
    await continueAs(page, 'ada')
    await page.locator('latchkey-signin button[part~="passkey"]').click()
    await expect.poll(() => page.evaluate(() => window.client.status), { timeout: 10_000 }).toBe('authenticated')
    expect(await page.evaluate(() => window.client.session?.user?.email)).toBe('ada.button@example.com')
    await page.context().close()
  })

  it('an autofill that ends unused (no passkey on this device) shows no error', async () => {
    const { page } = await openWithAuthenticator(env.browser, 'about:blank', { waitForReady: false })
    const errors: string[] = []
    await page.exposeFunction('reportError', (code: string) => errors.push(code))
    await page.addInitScript(() => document.addEventListener('latchkey-error', (e) => (window as any).reportError((e as CustomEvent).detail.code)))
    // The browser's answer to the autofill's request, for the test to await.
    await page.addInitScript(() => {
      const get = navigator.credentials.get.bind(navigator.credentials)
      navigator.credentials.get = (options) => ((window as any).answered = get(options))
    })
    const asked = optionsAnswered(page, 'authenticate')
    await page.goto(`${env.server.url}/?passkey&nosw`)
    await asked
    // The virtual authenticator refuses a conditional request at once when it holds no passkey,
    // as a browser does when one times out unused: not-allowed, in the background. Wait until the
    // element has dealt with the refusal.
    await page.waitForFunction(() => !!(window as any).answered)
    await page.evaluate(() => (window as any).answered.catch(() => {}))
    await settled(page)
    expect(errors).toEqual([])
    expect(await page.locator('latchkey-signin [part="error"]').isHidden()).toBe(true)
    await page.context().close()
  })

  it('without the passkey client the fields keep their plain autofill', async () => {
    const { page } = await openWithAuthenticator(env.browser, `${env.server.url}/?nosw`)
    const username = page.locator('latchkey-signin input[part~="identifier"]')
    await expect.poll(() => username.getAttribute('autocomplete')).toBe('username')
    await page.context().close()
  })
})
