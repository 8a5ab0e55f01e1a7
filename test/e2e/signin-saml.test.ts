/**
 * Enterprise sign-in over SAML in `<latchkey-signin>`, in Chromium, against the test app with the
 * organizations and sso plugins and samlify in its IdP role behind HTTP (test/plugins/sso-saml-idp.ts):
 * an address of the domain Acme verified is offered "Continue with Acme's sign-in"; the browser
 * goes to the IdP with an HTTP-Redirect AuthnRequest, and the IdP's page posts the signed response
 * back to the ACS by itself, cross-site with no cookie, as a real IdP's does; the page ends signed
 * in, a member of Acme. An answer for another audience ends on the sign-in page with the refusal
 * said, no one signed in.
 */
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { Browser } from '../oauth/harness.js'
import { samlIdpServer } from '../plugins/sso-saml-idp.js'
import { post, verifyDomain, type Store } from '../plugins/sso-support.js'
import { browserAndServer, continueAs, openSsoPage, settled, ssoPage } from './helpers.js'

const env = browserAndServer({ sso: true, password: true, pages: { '/sso': ssoPage } })
let idp: Awaited<ReturnType<typeof samlIdpServer>>
beforeAll(async () => {
  idp = await samlIdpServer()
})
afterAll(() => idp?.close())
const store = () => env.server.adapter as Store

/** Once for the file: an admin (credentials) makes Acme, adds its SAML connection with the IdP's metadata, verifies acme.test; the IdP is given the SP's metadata. */
let made: Promise<{ organizationId: string; acsUrl: string }> | undefined
const acme = () =>
  (made ??= (async () => {
    const app = { auth: `${env.server.url}/auth` }
    const admin = new Browser()
    await admin.postForm(app.auth, '/callback/credentials', { username: 'admin', password: 'secret' })
    const org = await post(admin, app, '/organizations', { action: 'create', name: 'Acme' })
    expect(org.status, JSON.stringify(org.body)).toBe(200)
    const connection = await post(admin, app, `/sso-connections/${org.body.id}`, { action: 'create', kind: 'saml', name: 'Acme SAML', metadataXml: idp.metadata, domains: ['acme.test'] })
    expect(connection.status, JSON.stringify(connection.body)).toBe(200)
    expect(connection.body.saml.ssoUrl).toBe(`${idp.origin}/sso`)
    await verifyDomain(store(), org.body.id, 'acme.test')
    const sp = connection.body.serviceProvider as { acsUrl: string; metadataUrl: string }
    idp.trust(await (await fetch(sp.metadataUrl)).text())
    return { organizationId: org.body.id as string, acsUrl: sp.acsUrl }
  })())

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)

/** The sso page in a new context, `address` given, Acme's sign-in offered. */
async function offeredAcme(address: string) {
  const opened = await openSsoPage(env)
  await continueAs(opened.page, address)
  await part(opened.page, 'sso-form').waitFor()
  await settled(opened.page)
  const button = part(opened.page, 'sso-form').locator('[part~="primary"]')
  expect(await button.textContent()).toBe("Continue with \u2068Acme\u2069's sign-in")
  return { ...opened, button }
}

/** Presses Acme's sign-in: the IdP answers its AuthnRequest with a page that posts to the ACS. */
async function throughIdp(page: Page, button: Locator, acsUrl: string, { handedOff }: { handedOff: boolean }) {
  const acs = page.waitForRequest((r) => r.method() === 'POST' && r.url() === acsUrl)
  const handoff = handedOff && page.waitForRequest((r) => r.method() === 'GET' && r.url().startsWith(`${acsUrl}?handoff=`))
  const before = idp.answered.length
  await button.click()
  const request = await acs
  expect(idp.answered.length).toBe(before + 1)
  const asked = idp.answered.at(-1)!
  expect(asked.acsUrl).toBe(acsUrl)
  expect(asked.relayState).toBeTruthy()
  const form = new URLSearchParams(request.postData() ?? '')
  expect(form.get('RelayState')).toBe(asked.relayState)
  expect(form.get('SAMLResponse')).toBeTruthy()
  const headers = await request.allHeaders()
  // Cross-site, from the IdP's page: the browser sends no SameSite=Lax cookie with it.
  expect(headers.origin).toBe(idp.origin)
  expect(headers.cookie).toBeUndefined()
  // Checked, the ACS sends the browser (303) to itself: that GET carries the cookies, the sign-in's flow cookie among them.
  if (handoff) expect((await (await handoff).allHeaders()).cookie).toBeTruthy()
}

test("an address of Acme's domain signs in through its SAML IdP: the IdP's page posts the signed response to the ACS; signed in, a member of Acme", async () => {
  const { organizationId, acsUrl } = await acme()
  idp.assertion = { nameId: 'ada@acme.test', attributes: { name: 'Ada L' } }
  const { context, page, problems, button } = await offeredAcme('ada@acme.test')
  await throughIdp(page, button, acsUrl, { handedOff: true })
  await page.waitForURL((u) => u.origin === env.server.url && u.pathname === '/sso')
  await page.waitForFunction(() => window.ready === true && window.client.session?.user?.email === 'ada@acme.test', undefined, { timeout: 10_000 })
  expect(await page.evaluate(() => window.client.session?.user?.name)).toBe('Ada L')
  const user = (await store().getUserByEmail!('ada@acme.test'))!
  expect((await store().getMember(organizationId, user.id))?.role).toBe('member')
  expect(problems).toEqual([])
  await context.close()
})

test('an IdP answer for another audience ends on the sign-in page with the refusal said, no one signed in', async () => {
  const { acsUrl } = await acme()
  idp.assertion = { nameId: 'mallory@acme.test', audience: 'https://other-sp.example/metadata' }
  const { context, page, problems, button } = await offeredAcme('mallory@acme.test')
  await throughIdp(page, button, acsUrl, { handedOff: false })
  // The error page is the app's sign-in page ('/'), the refusal said under its form.
  await page.waitForURL((u) => u.origin === env.server.url && u.pathname === '/')
  await expect
    .poll(() => signin(page).locator('[part="error"]').textContent())
    .toBe("Your organization's sign-in did not go through. Try again, or ask your organization's administrator.")
  await page.waitForFunction(() => window.ready === true && window.client.status === 'unauthenticated')
  expect(await page.evaluate(() => window.client.session)).toBeNull()
  expect(await store().getUserByEmail!('mallory@acme.test')).toBeNull()
  expect(problems).toEqual([])
  await context.close()
})
