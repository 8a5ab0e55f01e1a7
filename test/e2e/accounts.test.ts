/**
 * Linked accounts in Chromium through `<latchkey-accounts>`, against the Demo IdP (oidc-provider)
 * configured twice (two clients, two provider ids): sign in with one, the last-way guard refuses
 * its unlinking, "Connect" links the second (a sign-in while signed in), then the first unlinks.
 * Bad input over HTTP (another user's account, no CSRF token) is in test/server/accounts-route.test.ts.
 */
import { afterAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import OIDC from '../../src/providers/oidc.js'
import { demoUsers, startIdp, type Idp } from '../support/idp.js'
import { browserAndServer, openPage, statusOf } from './helpers.js'

let idp: Idp
declare global {
  interface Window {
    confirmsAsked: number
  }
}
const alice = demoUsers.find((u) => u.id === 'alice')!

const env = browserAndServer({
  // Sessions outlive freshAge (an hour), so a test can hold a stale one.
  maxAge: 86_400,
  providers: async (appUrl) => {
    const client = (id: string) => ({ client_id: id, client_secret: `${id}-secret`, redirect_uris: [`${appUrl}/auth/callback/${id}`] })
    // ID tokens outlive the two hours a test moves the app's clock on.
    idp = await startIdp({ idTokenTtl: 6 * 3600, clients: [client('first-idp'), client('second-idp')] })
    const provider = (id: string, name: string) => OIDC({ id, name, issuer: idp.issuer, clientId: id, clientSecret: `${id}-secret` })
    return [provider('first-idp', 'First IdP'), provider('second-idp', 'Second IdP')]
  },
})
afterAll(() => idp?.close())

const accountsElement = (page: Page) => page.locator('#accounts')
const linked = (page: Page) => page.locator('#accounts li[part="account"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-provider')))
const stored = async (page: Page) =>
  ((await (await page.context().request.get(`${env.server.url}/auth/accounts`)).json()) as { accounts: { provider: string }[] }).accounts.map((a) => a.provider).sort()

/** Alice signs in with one of the IdP's clients, at the IdP's own form. */
async function signInAtIdp(page: Page, provider: string) {
  await page.evaluate((id) => window.client.signIn(id), provider)
  await page.waitForURL((u) => u.origin === idp.origin)
  await page.getByLabel('Email').fill(alice.email)
  await page.getByLabel('Password').fill(alice.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.origin === env.server.url)
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => statusOf(page)).toBe('authenticated')
}

test('list, the last-way guard, connect a second provider, unlink the first', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/')
  // Signed out the element shows nothing of the list.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-accounts id="accounts"></latchkey-accounts>'))
  expect(await accountsElement(page).locator('ul').count()).toBe(0)

  // Sign in with the first IdP, at the IdP's own form.
  await signInAtIdp(page, 'first-idp')
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-accounts id="accounts"></latchkey-accounts>'))
  await expect.poll(() => linked(page)).toEqual(['first-idp'])
  // A Connect button for each configured OAuth/OIDC provider not linked, none for the linked one.
  const connect = (id: string) => accountsElement(page).locator(`button[part~="connect"][data-provider="${id}"]`)
  expect(await connect('second-idp').textContent()).toBe('Connect Second IdP')
  expect(await connect('first-idp').count()).toBe(0)

  // The only way to sign in: unlinking is refused, said in words, and changes nothing.
  await accountsElement(page).getByRole('button', { name: 'Unlink First IdP' }).click()
  await expect.poll(() => accountsElement(page).locator('[part="error"]').textContent()).toMatch(/last way to sign in/)
  expect(await stored(page)).toEqual(['first-idp'])

  // Connect: a sign-in with the second IdP while signed in. Signed in at the IdP, it answers at once.
  const back = page.waitForResponse((r) => new URL(r.url()).pathname === '/auth/callback/second-idp')
  await connect('second-idp').click()
  await back
  await page.waitForURL((u) => u.origin === env.server.url && u.pathname === '/')
  await page.waitForFunction(() => window.ready === true)
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-accounts id="accounts"></latchkey-accounts>'))
  await expect.poll(() => linked(page)).toEqual(['first-idp', 'second-idp'])
  expect(await stored(page)).toEqual(['first-idp', 'second-idp'])
  const user = await page.evaluate(() => window.client.session?.user?.email)
  expect(user).toBe(alice.email)

  // Now the first can go: the second remains a way in, and the session stays.
  await accountsElement(page).getByRole('button', { name: 'Unlink First IdP' }).click()
  await expect.poll(() => linked(page)).toEqual(['second-idp'])
  expect(await stored(page)).toEqual(['second-idp'])
  expect(await connect('first-idp').textContent()).toBe('Connect First IdP')
  expect(await accountsElement(page).locator('[part="error"]').isHidden()).toBe(true)
  expect(await statusOf(page)).toBe('authenticated')
  await context.close()
})

test('the SDK: accounts.list, accounts.unlink and passkey.list answer typed errors signed out', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/?passkey')
  const codes = await page.evaluate(async () => {
    const code = (p: Promise<unknown>) => p.then(() => 'none', (e: { code?: string }) => e.code)
    return [await code(window.client.accounts.list()), await code(window.client.accounts.unlink('first-idp')), await code(window.client.passkey.list())]
  })
  expect(codes).toEqual(['AccessDenied', 'AccessDenied', 'AccessDenied'])
  await context.close()
})

test('a session past freshAge: Connect is refused before leaving and asks to confirm; once confirmed it links', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, env.server.url + '/?passkey')
  // Alice (left with the second IdP by the test above) signs in with it in a new browser.
  await signInAtIdp(page, 'second-idp')
  await page.evaluate(() => {
    window.confirmsAsked = 0
    // The page confirms on its own (below): it takes the asking over, so the element opens no sign-in of its own.
    document.addEventListener('latchkey-confirm-needed', (e) => (e.preventDefault(), window.confirmsAsked++))
    document.body.insertAdjacentHTML('beforeend', '<latchkey-accounts id="accounts"></latchkey-accounts>')
  })
  await expect.poll(() => linked(page)).toEqual(['second-idp'])

  // Two hours on: the copied-cookie case. Connect says to confirm, fires the event, and stays here.
  env.server.advance(2 * 3600_000)
  const connect = accountsElement(page).locator('button[part~="connect"][data-provider="first-idp"]')
  const here = page.url()
  await connect.click()
  await expect.poll(() => accountsElement(page).locator('[part="error"]').textContent()).toMatch(/Confirm it's you/)
  expect(await page.evaluate(() => window.confirmsAsked)).toBe(1)
  // The page took the asking over (preventDefault): the element opened no sign-in of its own.
  expect(await accountsElement(page).locator('[part~="confirm"]').count()).toBe(0)
  expect(page.url()).toBe(here)
  expect(await stored(page)).toEqual(['second-idp'])
  // The same guard, and the same code, on every management call that removes a way in or ends a session.
  const refused = await page.evaluate(async () => {
    const code = (p: Promise<unknown>) => p.then(() => 'none', (e: { code?: string }) => e.code)
    return [await code(window.client.accounts.unlink('second-idp')), await code(window.client.passkey.remove('any-id')), await code(window.client.sessions.revokeOthers())]
  })
  expect(refused).toEqual(['SessionNotFresh', 'SessionNotFresh', 'SessionNotFresh'])
  expect(await stored(page)).toEqual(['second-idp'])

  // Confirm with the way she has (the IdP answers at once: she is signed in there), then Connect links.
  await page.evaluate(() => window.client.signIn('second-idp', { confirm: true }))
  await page.waitForURL((u) => u.origin === env.server.url && u.pathname === '/')
  await page.waitForFunction(() => window.ready === true)
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-accounts id="accounts"></latchkey-accounts>'))
  await expect.poll(() => linked(page)).toEqual(['second-idp'])
  const back = page.waitForResponse((r) => new URL(r.url()).pathname === '/auth/callback/first-idp')
  await connect.click()
  await back
  await page.waitForURL((u) => u.origin === env.server.url && u.pathname === '/')
  expect(await stored(page)).toEqual(['first-idp', 'second-idp'])
  await context.close()
})
