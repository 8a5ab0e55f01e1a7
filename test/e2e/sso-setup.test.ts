/**
 * `<latchkey-sso-setup>` in Chromium, inside `<latchkey-organization>`, against the test app with
 * the organizations, sso and scim plugins and a real OpenID provider (oidc-provider, the demo's
 * IdP): an owner adds an OIDC connection from the keyboard, is given the redirect URI, tests the
 * connection (a real sign-in round trip through it, back to the page with its result), deletes
 * one after the second confirmation; creates a SCIM token, shown once with its warning, that
 * works against /auth/scim/v2/Users until revoked here (then 401); a plain member sees no part of
 * it; a bad issuer is said under its field; axe finds nothing, light, dark and in Arabic; nothing
 * overflows 280 px.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { oidcIdp, type Store } from '../plugins/sso-support.js'
import { violations } from './axe.js'
import { browserAndServer, deepFocus, openPage, overflowing, signInAs as signIn } from './helpers.js'

const teamPage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Your team</title>
<style>html{background:Canvas;color:CanvasText}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem}main{max-width:44rem;margin:auto}h1{font-size:1.5rem;margin:0 0 1rem}</style>
<main><h1>Your team</h1><latchkey-organization></latchkey-organization></main>
<script type="module">
import { createAuthClient, organizations, sso, ssoConnections, scimTokens } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js', plugins: [organizations(), sso(), ssoConnections(), scimTokens()] })
defineElements(window.client)
window.ready = true
</script></html>`

/** The drop-in script's page: its settings part brings the organization element and the sso one. */
const dropInTeam = `<!doctype html><html lang="ar" dir="rtl"><meta charset="utf-8"><title>فريقك</title>
<main><latchkey-organization></latchkey-organization></main>
<script src="/latchkey.iife.js" data-base-path="/auth" data-service-worker="/latchkey-sw.js"></script>
<script>window.client = Latchkey.client; window.ready = true</script></html>`

const provider = oidcIdp()
afterAll(() => provider.close())
const env = browserAndServer({ sso: true, scim: true, pages: { '/team': teamPage, '/drop-in-team': dropInTeam }, providers: provider.providers })

interface Opened {
  context: BrowserContext
  page: Page
  problems: string[]
}

async function open(viewport?: { width: number; height: number }): Promise<Opened> {
  const context = await env.browser.newContext({ ...(viewport && { viewport }) })
  const page = await openPage(context, `${env.server.url}/team`)
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  return { context, page, problems }
}

/** The owner of a new organization `name`, active in the session. */
async function owner(page: Page, username: string, name: string): Promise<string> {
  await signIn(page, username)
  return page.evaluate(async (name) => (await window.client.organizations.create({ name })).id, name)
}

const setup = (page: Page) => page.locator('latchkey-organization latchkey-sso-setup')
const part = (page: Page, name: string) => setup(page).locator(`[part~="${name}"]`)
const connection = (page: Page, name: string) => setup(page).locator('[part~="connection"]', { has: page.locator(`[part~="name"]:text-is("${name}")`) })
const said = (page: Page) => setup(page).evaluate((el) => [...el.shadowRoot!.querySelectorAll('[role=status]')].map((s) => s.textContent).filter(Boolean))
const errorOf = (page: Page) =>
  setup(page).evaluate((el) => {
    const error = el.shadowRoot!.getElementById('error')!
    return error.hidden ? null : { text: error.textContent, after: error.previousElementSibling?.querySelector('input,textarea')?.getAttribute('name') ?? error.previousElementSibling?.localName, describes: [...el.shadowRoot!.querySelectorAll('[aria-describedby~="error"]')].map((f) => f.getAttribute('name')) }
  })

/** Types `text` into the field the focus is on, after Tab moves it there from wherever it is. */
async function tabTo(page: Page, name: string, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if ((await deepFocus(page)).endsWith(`[name=${name}]`)) return
  }
  throw new Error(`Tab never reached ${name}; the focus is on ${await deepFocus(page)}`)
}

/** Adds an OIDC connection from the keyboard alone. */
async function addFromKeyboard(page: Page, fields: { name: string; issuer: string; clientId: string; clientSecret: string; domains: string }) {
  await setup(page).locator('input[name="name"]').focus()
  await page.keyboard.type(fields.name)
  for (const key of ['issuer', 'clientId', 'clientSecret', 'domains'] as const) {
    await tabTo(page, key)
    await page.keyboard.type(fields[key])
  }
  await page.keyboard.press('Enter')
}

test('an owner adds an OIDC connection from the keyboard, gets the redirect URI, tests it through the IdP and back, and deletes one after asking again', async () => {
  const { context, page, problems } = await open()
  await owner(page, 'alice', 'Acme')
  await part(page, 'connection-form').waitFor()
  expect(await part(page, 'empty').first().textContent()).toBeTruthy()

  // A refused field: a bad issuer is said under it, and the field points at the words.
  await addFromKeyboard(page, { name: 'Broken', issuer: 'not a url', clientId: 'acme', clientSecret: 'x', domains: 'example.com' })
  await expect.poll(() => errorOf(page)).toMatchObject({ after: 'issuer', describes: ['issuer'] })
  expect((await errorOf(page))!.text).toBe('Enter the https URL your identity provider gives.')
  expect(await setup(page).locator('[part~="connection"]').count()).toBe(0)
  await setup(page).locator('input[name="issuer"]').fill('')
  await setup(page).locator('input[name="name"]').fill('')
  await setup(page).locator('input[name="clientId"]').fill('')
  await setup(page).locator('input[name="clientSecret"]').fill('')
  await setup(page).locator('input[name="domains"]').fill('')

  await addFromKeyboard(page, { name: 'Acme IdP', issuer: provider.idp().issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: 'example.com' })
  await connection(page, 'Acme IdP').waitFor()
  await expect.poll(() => errorOf(page)).toBe(null)
  expect(await said(page)).toContain('\u2068Acme IdP\u2069 added: give your identity provider the values shown.')
  // The redirect URI to give the IdP, and the focus on its Copy.
  const values = connection(page, 'Acme IdP').locator('[part~="value-text"]')
  expect(await values.allTextContents()).toEqual([`${env.server.url}/auth/callback/sso`])
  expect(await deepFocus(page)).toBe('latchkey-organization > latchkey-sso-setup > button')
  expect(await connection(page, 'Acme IdP').locator('[part~="detail"]').textContent()).toBe('OIDC · example.com')

  // Test the connection: the IdP's sign-in, and back here with the result.
  await connection(page, 'Acme IdP').locator('button[part~="test-connection"]').click()
  await page.waitForURL((u) => u.origin === provider.idp().origin)
  await page.getByLabel('Email').fill('alice@example.com')
  await page.getByLabel('Password').fill('alice-password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.origin === env.server.url)
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => connection(page, 'Acme IdP').locator('[part~="test-result"]').textContent(), { timeout: 10_000 })
    .toBe('The connection works: you signed in through \u2068Acme IdP\u2069 as \u2068alice@example.com\u2069.')
  expect(await connection(page, 'Acme IdP').locator('[part~="test-result"]').getAttribute('part')).toContain('ok')
  // Still the owner of Acme: the round trip signed the same user in.
  expect(await page.evaluate(() => window.client.session?.organization?.role)).toBe('owner')

  // Delete a second one: asked again, then gone.
  await addFromKeyboard(page, { name: 'Second', issuer: provider.idp().issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: 'second.example' })
  await connection(page, 'Second').waitFor()
  await connection(page, 'Second').locator('button[part~="delete-connection"]').click()
  await connection(page, 'Second').locator('[part~="delete-ask"]').waitFor()
  expect(await deepFocus(page)).toBe('latchkey-organization > latchkey-sso-setup > button')
  expect(await setup(page).evaluate((el) => el.shadowRoot!.activeElement?.getAttribute('part'))).toContain('confirm-delete')
  // Escape takes the question back; asked again and confirmed, it goes.
  await page.keyboard.press('Escape')
  await expect.poll(() => connection(page, 'Second').locator('[part~="delete-ask"]').count()).toBe(0)
  await connection(page, 'Second').locator('button[part~="delete-connection"]').click()
  await page.keyboard.press('Enter')
  await expect.poll(() => connection(page, 'Second').count()).toBe(0)
  expect(await connection(page, 'Acme IdP').count()).toBe(1)
  expect(await said(page)).toContain('\u2068Second\u2069 was deleted.')
  const orgId = await page.evaluate(() => window.client.session!.organization!.id)
  expect((await page.evaluate((id) => window.client.ssoConnections.list(id), orgId)).map((c) => c.name)).toEqual(['Acme IdP'])
  expect(problems).toEqual([])
  await context.close()
})

test('a SCIM token is shown once, with its warning, works against /auth/scim/v2/Users, and gets 401 once revoked here', async () => {
  const { context, page, problems } = await open()
  await owner(page, 'sam', 'Provisioned')
  const form = part(page, 'token-form')
  await form.waitFor()
  const endpoint = await setup(page).locator('#scim-endpoint').textContent()
  expect(endpoint).toBe(`${env.server.url}/auth/scim/v2`)

  await form.locator('input[name="tokenName"]').fill('Okta')
  await form.locator('input[name="tokenName"]').press('Enter')
  await part(page, 'new-token').waitFor()
  expect(await part(page, 'new-token').locator('[part~="warning"]').textContent()).toBe('Copy the token for \u2068Okta\u2069 now: it is not shown again.')
  const token = (await setup(page).locator('#scim-token').textContent())!
  expect(token.length).toBeGreaterThan(20)
  const users = (bearer: string) => fetch(`${endpoint}/Users`, { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.status)
  expect(await users(token)).toBe(200)
  // Hidden, it is gone from the page for good: the list has the name, never the secret.
  await part(page, 'hide-token').click()
  await expect.poll(() => part(page, 'new-token').count()).toBe(0)
  expect(await setup(page).evaluate((el, token) => el.shadowRoot!.innerHTML.includes(token), token)).toBe(false)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  const row = setup(page).locator('[part~="token"]', { hasText: 'Okta' })
  await row.waitFor()
  expect(await setup(page).evaluate((el, token) => el.shadowRoot!.innerHTML.includes(token), token)).toBe(false)

  await row.locator('button[part~="revoke-token"]').click()
  await row.locator('button[part~="confirm-revoke"]').click()
  await expect.poll(() => setup(page).locator('[part~="token"]').count()).toBe(0)
  expect(await said(page)).toContain('\u2068Okta\u2069 was revoked.')
  expect(await users(token)).toBe(401)
  expect(problems).toEqual([])
  await context.close()
})

test('a plain member sees no SSO part', async () => {
  const { context, page, problems } = await open()
  const orgId = await owner(page, 'olga', 'Members Only')
  await setup(page).locator('[part~="connection-form"]').waitFor()
  // The server lists the sso plugin: the owner's part shows (without it, test/e2e/organizations.test.ts, it does not).
  expect(await page.evaluate(() => window.client.getPlugins())).toEqual(expect.arrayContaining(['organizations', 'sso', 'scim']))
  const other = await openPage(await env.browser.newContext(), `${env.server.url}/team`)
  await signIn(other, 'mel')
  await (env.server.adapter as Store).addMember({ id: crypto.randomUUID(), organizationId: orgId, userId: 'user-mel', role: 'member', joinedAt: new Date() })
  await other.evaluate((id) => window.client.organizations.switch(id), orgId)
  await expect.poll(() => other.locator('latchkey-organization [part="summary"] [part~="name"]').textContent()).toBe('Members Only')
  expect(await other.locator('latchkey-organization latchkey-sso-setup').count()).toBe(0)
  // Nor by the API: the server refuses a plain member.
  expect(await other.evaluate((id) => window.client.ssoConnections.list(id).then(() => 'listed', (e) => e.code), orgId)).toBe('OrganizationForbidden')
  expect(problems).toEqual([])
  await context.close()
})

test('axe: no violation with a connection, a new token and a question open, light, dark, and in Arabic (right to left); 280 px wide, nothing overflows', async () => {
  const { context, page } = await open()
  await owner(page, 'axel', 'An organization with a rather long name indeed')
  await part(page, 'connection-form').waitFor()
  await page.evaluate(async ({ issuer }) => {
    const id = window.client.session!.organization!.id
    await window.client.ssoConnections.create(id, { kind: 'oidc', name: 'A connection with a long name for narrow screens', issuer, clientId: 'acme', clientSecret: 'acme-secret', domains: 'a-rather-long-domain-name.example.com' })
  }, { issuer: provider.idp().issuer })
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await part(page, 'connection').waitFor()
  await part(page, 'token-form').locator('input').fill('Microsoft Entra ID')
  await part(page, 'token-form').locator('input').press('Enter')
  await part(page, 'new-token').waitFor()
  await part(page, 'delete-connection').click()
  await part(page, 'delete-ask').waitFor()
  const clean = async (what: string) => expect(await violations(page), what).toEqual([])
  await clean('light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean('dark')
  await page.evaluate(() => (document.documentElement.lang = 'ar'))
  // Its own words (src/locales/ar/sso.ts), on top of the settings elements'.
  await expect.poll(() => part(page, 'add-connection').textContent()).toBe('إضافة الاتصال')
  expect(await part(page, 'cancel').textContent()).toBe('إلغاء')
  await expect.poll(() => setup(page).getAttribute('lang')).toBe('ar')
  expect(await setup(page).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('[part~="connection-form"]')!).direction)).toBe('rtl')
  await clean('Arabic, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await clean('Arabic')

  await page.evaluate(() => (document.documentElement.lang = 'en'))
  await page.setViewportSize({ width: 280, height: 900 })
  await expect.poll(() => overflowing(page)).toEqual([])
  await part(page, 'cancel').click()
  expect(await overflowing(page)).toEqual([])
  await context.close()
})

test("the drop-in: <latchkey-sso-setup>'s words are a file of their own, fetched with it in Arabic", async () => {
  const context = await env.browser.newContext()
  const fetched: string[] = []
  context.on('request', (r) => /\/locales\//.test(r.url()) && fetched.push(new URL(r.url()).pathname))
  const page = await openPage(context, `${env.server.url}/drop-in-team`)
  await owner(page, 'dora', 'Drop-in')
  await expect.poll(() => part(page, 'add-connection').textContent(), { timeout: 10_000 }).toBe('إضافة الاتصال')
  expect(await part(page, 'create-token').textContent()).toBe((await import('../../src/locales/ar/sso.js')).default.scimCreate)
  expect(fetched.sort()).toEqual(['/locales/ar-profile.js', '/locales/ar-sso.js', '/locales/ar.js'])
  await context.close()
})
