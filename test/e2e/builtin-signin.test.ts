/**
 * The server's built-in sign-in page in Chromium, under its own CSP: a person signs up from its
 * link, follows the confirmation link from the email and lands back on it with the notice read out
 * (a status message) and the forgot-password and sign-up links; another signs in with a passkey
 * from it (its inline script, allowed by hash, runs the ceremony with the virtual authenticator).
 * No page reports a CSP violation.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openWithAuthenticator } from '../webauthn/support/browser.js'
import { browserAndServer } from './helpers.js'

const env = browserAndServer({ password: true, builtInPages: true })

/** The page's CSP violations, as Chromium reports them on the console. */
function violations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => void (/Content Security Policy/.test(m.text()) && seen.push(m.text())))
  return seen
}

describe('the built-in sign-in page', () => {
  it('sign-up from its link, then the confirmation link: back on it, the notice read out, the links there', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    const refused = violations(page)
    await page.goto(`${env.server.url}/auth/signin`)
    await page.getByRole('link', { name: 'Create an account' }).click()
    await page.waitForURL(`${env.server.url}/auth/password/sign-up`)
    await page.getByLabel('Email').fill('nia@example.com')
    await page.getByLabel('Password').fill('a long passphrase')
    await page.getByRole('button', { name: 'Create the account' }).click()
    await page.waitForURL(`${env.server.url}/auth/signin?notice=confirmation-sent`)
    expect(await page.getByRole('status').textContent()).toBe('Check your email: we sent that address a message with the next step.')

    const email = env.server.passwordOutbox.find((m) => m.kind === 'verify-email' && m.to === 'nia@example.com')!
    await page.goto(email.url!)
    await page.getByRole('button', { name: 'Confirm my address' }).click()
    await page.waitForURL(`${env.server.url}/auth/signin?notice=email-verified`)
    expect(await page.getByRole('status').textContent()).toBe('Your email address is confirmed. You can sign in now.')
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(`${env.server.url}/auth/password/forgot`)
    expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(`${env.server.url}/auth/password/sign-up`)

    // The confirmed account signs in with the page's password form.
    await page.locator('form[action$="/callback/password"] input[name="email"]').fill('nia@example.com')
    await page.locator('form[action$="/callback/password"] input[name="password"]').fill('a long passphrase')
    await page.getByRole('button', { name: 'Sign in with Password' }).click()
    await page.waitForURL(`${env.server.url}/`)
    expect((await (await context.request.get(`${env.server.url}/auth/session`)).json()).user.email).toBe('nia@example.com')
    expect(refused).toEqual([])
    await context.close()
  })

  it('signs in with a passkey: the script runs the ceremony and posts its answer', async () => {
    const { page } = await openWithAuthenticator(env.browser, `${env.server.url}/?passkey&nosw`)
    await page.evaluate(async () => {
      await window.client.passkey.register({ email: 'pia@example.com' })
      await window.client.signOut({ redirect: false })
    })
    const refused = violations(page)
    const done = `${env.server.url}/done`
    await page.goto(`${env.server.url}/auth/signin?callbackUrl=${encodeURIComponent(done)}`)
    const button = page.getByRole('button', { name: 'Sign in with Passkey' })
    await button.click()
    await page.waitForURL(done)
    expect((await (await page.context().request.get(`${env.server.url}/auth/session`)).json()).user.email).toBe('pia@example.com')
    expect(refused).toEqual([])
    await page.context().close()
  })

  it('a passkey that is not there: the form says so and stays, to try again', async () => {
    // A new authenticator, with no passkey for this site: the browser refuses the request.
    const { page } = await openWithAuthenticator(env.browser, `${env.server.url}/auth/signin`, { waitForReady: false })
    await page.getByRole('button', { name: 'Sign in with Passkey' }).click()
    const alert = page.locator('form[data-passkey-options] [role="alert"]')
    await alert.waitFor({ state: 'visible' })
    expect(await alert.textContent()).toBe('The passkey could not be used. Try again, or sign in another way.')
    expect(await page.getByRole('button', { name: 'Sign in with Passkey' }).isEnabled()).toBe(true)
    expect(page.url()).toBe(`${env.server.url}/auth/signin`)
    await page.context().close()
  })
})
