/**
 * Home-realm discovery in `<latchkey-signin>`, in Chromium, against the test app with the
 * organizations and sso plugins and a real OpenID provider (oidc-provider, the demo's IdP): an
 * address of a domain an organization verified is offered "Continue with Acme's sign-in" first
 * (the other ways quiet), and it completes through the IdP back to signed in; an address of
 * another domain sees the usual ways; each domain is asked once per page; a required connection
 * is offered alone; axe finds nothing, in English and in Arabic (right to left).
 */
import type { Page } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { Browser } from '../oauth/harness.js'
import { oidcIdp, post, unverifyDomain, verifyDomain, type Store } from '../plugins/sso-support.js'
import { violations } from './axe.js'
import { browserAndServer, openPage, openSsoPage, settled, ssoPage } from './helpers.js'

const provider = oidcIdp()
afterAll(() => provider.close())
/** The drop-in script alone: its client carries sso(). */
const dropInPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>latchkey drop-in</title>
<script src="/latchkey.iife.js" data-base-path="/auth" data-service-worker="false"></script>
<latchkey-signin></latchkey-signin></html>`
const env = browserAndServer({ sso: true, password: true, pages: { '/sso': ssoPage, '/drop-in.html': dropInPage }, providers: provider.providers })

/** An admin (credentials) makes the organization Acme, verifies `domain` (unless `verify` is false) and adds its OIDC connection. */
async function acme(domain = 'example.com', verify = true) {
  const app = { auth: `${env.server.url}/auth` }
  const admin = new Browser()
  await admin.postForm(app.auth, '/callback/credentials', { username: 'admin', password: 'secret' })
  const org = await post(admin, app, '/organizations', { action: 'create', name: 'Acme' })
  expect(org.status, JSON.stringify(org.body)).toBe(200)
  const made = await post(admin, app, `/sso-connections/${org.body.id}`, {
    action: 'create', kind: 'oidc', name: 'Acme IdP', issuer: provider.idp().issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: [domain],
  })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  const verified = () => verifyDomain(env.server.adapter as Store, org.body.id, domain)
  if (verify) await verified()
  return { verified, require: () => post(admin, app, `/sso-connections/${org.body.id}`, { action: 'update', id: made.body.id, required: true }) }
}

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)
/** The visible primary actions, and the quiet choices, of the step shown. */
const shown = (page: Page, which: 'primary' | 'choice') =>
  signin(page).evaluate((el, which) => [...el.shadowRoot!.querySelectorAll(`[part~="${which}"]`)].filter((p) => p.getClientRects().length).map((p) => p.textContent), which)
const discoveries = () => env.server.requests.get('GET /auth/sso-discover') ?? 0

const ssoPageOpen = () => openSsoPage(env)

async function continueWith(page: Page, address: string) {
  const input = signin(page).locator('input[part~="identifier"]')
  await input.fill(address)
  await input.press('Enter')
  await part(page, 'ways-step').waitFor()
  await settled(page)
}

test("an address of the verified domain is offered the organization's sign-in and completes through the IdP; another domain sees the usual ways; a required connection stands alone; axe, English and Arabic", async () => {
  const { require } = await acme()
  const { context, page, problems } = await ssoPageOpen()

  // Another domain: the usual ways, the password first; its domain asked once per page.
  const asked = discoveries()
  await continueWith(page, 'carol@other.test')
  expect(await shown(page, 'primary')).toEqual(['Sign in'])
  expect(await part(page, 'sso-form').count()).toBe(0)
  expect(discoveries()).toBe(asked + 1)
  await part(page, 'back').click()
  await continueWith(page, 'dan@other.test')
  expect(discoveries()).toBe(asked + 1)
  await part(page, 'back').click()

  // The organization's domain: its sign-in first, the other ways quiet.
  await continueWith(page, 'alice@example.com')
  expect(await shown(page, 'primary')).toEqual(["Continue with \u2068Acme\u2069's sign-in"])
  expect((await shown(page, 'choice')).length).toBeGreaterThan(0)
  expect(await violations(page)).toEqual([])
  // The keyboard alone: the focus is on the primary action; Enter goes to the IdP.
  expect(await signin(page).evaluate((el) => el.shadowRoot!.activeElement?.getAttribute('part'))).toContain('primary')
  await page.keyboard.press('Enter')
  await page.waitForURL((u) => u.origin === provider.idp().origin)
  await page.getByLabel('Email').fill('alice@example.com')
  await page.getByLabel('Password').fill('alice-password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.origin === env.server.url)
  await page.waitForFunction(() => window.ready === true && window.client.session?.user?.email === 'alice@example.com', undefined, { timeout: 10_000 })

  // Required: offered alone, in English and in Arabic, right to left.
  expect((await require()).body.required).toBe(true)
  const other = await openPage(await env.browser.newContext(), `${env.server.url}/sso`)
  await part(other, 'identifier-form').waitFor()
  await continueWith(other, 'erin@example.com')
  expect(await shown(other, 'primary')).toEqual(["Continue with \u2068Acme\u2069's sign-in"])
  expect(await shown(other, 'choice')).toEqual([])
  expect(await part(other, 'divider').evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).getClientRects().length).length)).toBe(0)
  expect(await violations(other)).toEqual([])
  await other.evaluate(() => (document.documentElement.lang = 'ar'))
  await expect.poll(() => shown(other, 'primary')).toEqual(['المتابعة بتسجيل الدخول الخاص بـ\u2068Acme\u2069'])
  expect(await signin(other).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('[part~="ways-step"]')!).direction)).toBe('rtl')
  expect(await violations(other)).toEqual([])
  expect(problems).toEqual([])
  await context.close()
})

test("a way refused with SsoRequired after discovery answered (the domain verified and required since): the element asks discovery again and offers the organization's sign-in alone, the refusal's words above it", async () => {
  // The admin's own address is of example.com, which the test before made required.
  await unverifyDomain(env.server.adapter as Store, 'example.com')
  const { verified, require } = await acme('stale.test', false)
  const { context, page, problems } = await ssoPageOpen()
  // Not verified yet: discovery answers no connection, kept for the page; the password is offered.
  const asked = discoveries()
  await continueWith(page, 'bob@stale.test')
  expect(await shown(page, 'primary')).toEqual(['Sign in'])
  expect(discoveries()).toBe(asked + 1)

  await verified()
  expect((await require()).body.required).toBe(true)
  // The keyboard alone: the password typed, Enter.
  const password = signin(page).locator('input[type="password"]')
  await password.fill('a password of his')
  await password.press('Enter')
  await part(page, 'sso-form').waitFor()
  await settled(page)
  expect(discoveries()).toBe(asked + 2)
  expect(await shown(page, 'primary')).toEqual(["Continue with \u2068Acme\u2069's sign-in"])
  expect(await shown(page, 'choice')).toEqual([])
  expect(await signin(page).locator('[part~="error"]').textContent()).toBe('Your organization requires you to sign in through its own sign-in.')
  expect(await signin(page).evaluate((el) => el.shadowRoot!.activeElement?.getAttribute('part'))).toContain('primary')
  expect(await violations(page)).toEqual([])
  // Back and Continue again: the fresh answer is the one kept.
  await part(page, 'back').click()
  await continueWith(page, 'bob@stale.test')
  expect(await shown(page, 'primary')).toEqual(["Continue with \u2068Acme\u2069's sign-in"])
  expect(discoveries()).toBe(asked + 2)
  expect(problems).toEqual([])
  await context.close()
})

test("the drop-in script's sign-in offers the organization's sign-in for its domain, with no code on the page", async () => {
  await acme('drop-in.example')
  const context = await env.browser.newContext()
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(`${env.server.url}/drop-in.html`)
  await part(page, 'identifier-form').waitFor()
  const asked = discoveries()
  await continueWith(page, 'erin@drop-in.example')
  expect(await shown(page, 'primary')).toEqual(["Continue with \u2068Acme\u2069's sign-in"])
  expect(discoveries()).toBe(asked + 1)
  expect(problems).toEqual([])
  await context.close()
})
