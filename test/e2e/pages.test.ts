/**
 * The server's own sign-in and sign-out pages in Chromium under their CSP: `form-action` lets
 * every form reach where latchkey sends it (Chromium checks each redirect hop of a form's
 * navigation), and nothing else.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import { browserAnd } from '../support/browser-and.js'
import { startIdp, type Idp } from '../support/idp.js'
import { alice, startApp } from '../oauth/harness.js'

let idp: Idp

const env = browserAnd(startApp)
beforeAll(async () => {
  idp = await startIdp({ clients: [{ client_id: 'pages', client_secret: 'pages-secret', redirect_uris: [`${env.server.auth}/callback/idp`] }] })
  env.server.use({
    secret: 'pages-test-secret-0123456789abcdef',
    adapter: MemoryAdapter(),
    providers: [
      // Discovery from the issuer: the page is rendered before anything was discovered.
      { id: 'idp', name: 'Demo IdP', type: 'oidc', issuer: idp.issuer, jwks_endpoint: undefined, clientId: 'pages', clientSecret: 'pages-secret' },
      Credentials({ credentials: { username: { label: 'Username' } }, authorize: async (c) => ({ id: `user-${c.username}`, email: `${c.username}@example.com` }) }),
    ],
  })
})
afterAll(() => idp?.close())

/** The page's CSP violations, as Chromium reports them on the console. */
function violations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/.test(m.text())) seen.push(m.text())
  })
  return seen
}

const done = () => `${env.server.url}/done`

describe("the pages' form-action", () => {
  test('the IdP button reaches the IdP, and with an IdP session the whole redirect chain back to the app passes', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    const refused = violations(page)
    await page.goto(`${env.server.auth}/signin?callbackUrl=${encodeURIComponent(done())}`)
    expect(await page.evaluate(() => document.contentType)).toBe('text/html')
    await page.getByRole('button', { name: 'Sign in with Demo IdP' }).click()
    await page.waitForURL((u) => u.origin === idp.origin)
    await page.getByLabel('Email').fill(alice.email)
    await page.getByLabel('Password').fill(alice.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL(done())
    // Signed out at the app, still signed in at the IdP: the IdP answers at once, so one form
    // navigation goes latchkey → IdP → IdP → latchkey's callback → the app.
    await page.goto(`${env.server.auth}/signout`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(env.server.url + '/')
    await page.goto(`${env.server.auth}/signin?callbackUrl=${encodeURIComponent(done())}`)
    await page.getByRole('button', { name: 'Sign in with Demo IdP' }).click()
    await page.waitForURL(done())
    const session = await (await context.request.get(`${env.server.auth}/session`)).json()
    expect(session.user.email).toBe(alice.email)
    expect(refused).toEqual([])
    await context.close()
  })

  test('the credentials form signs in and lands on the callback URL', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    const refused = violations(page)
    await page.goto(`${env.server.auth}/signin?callbackUrl=${encodeURIComponent(done())}`)
    await page.getByLabel('Username').fill('ada')
    await page.getByRole('button', { name: 'Sign in with Credentials' }).click()
    await page.waitForURL(done())
    expect(refused).toEqual([])
    await context.close()
  })

  test('a form to any other origin is refused', async () => {
    const context = await env.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${env.server.auth}/signin`)
    const directive = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.effectiveDirective} ${e.blockedURI}`), { once: true })
          const form = document.createElement('form')
          form.method = 'post'
          form.action = 'https://attacker.example/collect'
          document.body.append(form)
          form.submit()
        }),
    )
    expect(directive).toBe('form-action https://attacker.example/collect')
    expect(page.url()).toBe(`${env.server.auth}/signin`)
    await context.close()
  })
})
