/**
 * Connected apps in Chromium, against the test app with the authorization server plugin: a grant
 * made through the real flow (the authorization URL, the built-in consent page, Allow, the code
 * exchanged at the token endpoint) shows in `<latchkey-profile>`'s Connected apps section with its
 * logo, name and scopes' words; it is revoked from the keyboard alone, asked first (Escape backs
 * out), and its refresh token is refused at once; axe finds nothing, light, dark and in Arabic;
 * nothing overflows 280 px.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { violations } from './axe.js'
import { browserAndServer, focusedAt, openPage, overflowing, tabUntil } from './helpers.js'

const appsPage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Your account</title>
<style>html{background:Canvas;color:CanvasText}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem}main{max-width:44rem;margin:auto}h1{font-size:1.5rem;margin:0 0 1rem}</style>
<main><h1>Your account</h1><latchkey-profile sections="sessions,connected-apps"></latchkey-profile></main>
<script type="module">
import { createAuthClient, connectedApps, sessions } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [connectedApps(), sessions()] })
const lang = new URLSearchParams(location.search).get('lang')
if (lang) document.querySelector('latchkey-profile').setAttribute('lang', lang)
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({ oauthServer: true, pages: { '/apps': appsPage } })
/** The CLI's loopback listener (RFC 8252: any port of the registered http://127.0.0.1/callback). */
const cli = createServer((_, res) => void res.end('the CLI got its answer'))
let redirectUri: string
beforeAll(async () => {
  await new Promise<void>((resolve) => cli.listen(0, '127.0.0.1', resolve))
  redirectUri = `http://127.0.0.1:${(cli.address() as AddressInfo).port}/callback`
})
afterAll(() => new Promise((resolve) => cli.close(resolve)))
const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#1d4ed8"/></svg>`

/** A context whose requests for the client's logo are answered here (no network). */
async function context(options: Parameters<typeof env.browser.newContext>[0] = {}): Promise<BrowserContext> {
  const made = await env.browser.newContext(options)
  await made.route('https://cli.example.com/**', (route) => route.fulfill({ body: logo, contentType: 'image/svg+xml' }))
  return made
}

async function open(made: BrowserContext, query = ''): Promise<{ page: Page; problems: string[] }> {
  const page = await openPage(made, `${env.server.url}/apps${query}`, { controlled: false })
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  return { page, problems }
}

const signIn = (page: Page, username: string) =>
  page.evaluate(async (username) => {
    const result = await window.client.signIn('credentials', { username, password: 'secret', redirect: false })
    if (!result.ok) throw new Error(`sign-in refused: ${result.error}`)
  }, username)

/** The code flow for `cli` through the browser's real pages: answers the tokens. */
async function grant(page: Page): Promise<{ access_token: string; refresh_token: string }> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const url = new URL(`${env.server.url}/auth/oauth2/authorize`)
  const params = { client_id: 'cli', response_type: 'code', redirect_uri: redirectUri, scope: 'tools:read tools:write', code_challenge: challenge, code_challenge_method: 'S256', resource: 'http://localhost/mcp', state: 'st-1' }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  await page.goto(url.href)
  // Consent remembered: straight back to the CLI; else the consent page, Allow.
  const back = new URL(redirectUri).origin
  if (new URL(page.url()).origin !== back) await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL((u) => u.origin === back)
  const code = new URL(page.url()).searchParams.get('code')!
  const answer = await fetch(`${env.server.url}/auth/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cli', code, redirect_uri: redirectUri, code_verifier: verifier }),
  })
  expect(answer.status).toBe(200)
  return answer.json() as Promise<{ access_token: string; refresh_token: string }>
}

const refresh = (token: string) =>
  fetch(`${env.server.url}/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'cli', refresh_token: token }) })

const section = (page: Page) => page.locator('latchkey-connected-apps')
const row = (page: Page) => section(page).locator('li[part="app"]')

test('a grant made through the real flow shows, and is revoked from the keyboard alone after a question; its refresh token is refused at once', async () => {
  const made = await context()
  const { page } = await open(made)
  await signIn(page, 'ada')
  const tokens = await grant(page)
  const { page: profile, problems } = await open(made)
  await expect.poll(() => row(profile).count()).toBe(1)
  expect(await profile.locator('latchkey-profile section[part~="connected-apps"] h2').textContent()).toBe('Connected apps')
  expect(await row(profile).locator('[part="name"]').textContent()).toBe('Ada’s CLI')
  expect(await row(profile).locator('[part="scopes"] li').allTextContents()).toEqual(['Read your tools', 'Change your tools'])
  expect(await row(profile).locator('[part="detail"]').textContent()).toMatch(/^Allowed .+ · last used /)
  expect(await row(profile).locator('img[part~="logo"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.alt === '')).toBe(true)
  expect(await violations(profile)).toEqual([])

  // From the keyboard: Tab to Revoke, Enter asks; Escape backs out to the same button.
  const revokeButton = ['latchkey-profile', 'latchkey-connected-apps', 'button[part~="revoke"]']
  await tabUntil(profile, revokeButton)
  await profile.keyboard.press('Enter')
  await expect.poll(() => focusedAt(profile, 'latchkey-profile', 'latchkey-connected-apps', 'button[part~="revoke-confirm"]')).toBe(true)
  expect(await row(profile).locator('[part~="revoke-ask"] [part="message"]').textContent()).toBe('\u2068Ada’s CLI\u2069 loses access to your account at once, and must ask you again to get it back.')
  expect(await violations(profile)).toEqual([])
  await profile.keyboard.press('Escape')
  await expect.poll(() => focusedAt(profile, ...revokeButton)).toBe(true)
  expect((await refresh(tokens.refresh_token)).status).toBe(200)
  const spent = await grant(page)

  await profile.keyboard.press('Enter')
  await expect.poll(() => focusedAt(profile, 'latchkey-profile', 'latchkey-connected-apps', 'button[part~="revoke-confirm"]')).toBe(true)
  await profile.keyboard.press('Enter')
  await expect.poll(() => row(profile).count()).toBe(0)
  expect(await section(profile).locator('[role="status"]').textContent()).toBe('\u2068Ada’s CLI\u2069 no longer has access to your account.')
  expect(await section(profile).locator('[part="empty"]').textContent()).toBe('No app can use your account.')
  await expect.poll(() => focusedAt(profile, 'latchkey-profile', 'latchkey-connected-apps', '[role="status"]')).toBe(true)
  const refused = await refresh(spent.refresh_token)
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ error: 'invalid_grant' })
  // Read again: still gone.
  await profile.reload()
  await profile.waitForFunction(() => window.ready === true)
  await expect.poll(() => section(profile).locator('[part="empty"]').isVisible()).toBe(true)
  expect(problems).toEqual([])
  await made.close()
})

test('axe finds nothing in dark and in Arabic (right to left); nothing overflows 280 px', async () => {
  const dark = await context({ colorScheme: 'dark' })
  const { page } = await open(dark)
  await signIn(page, 'bo')
  await grant(page)
  const profile = (await open(dark)).page
  await expect.poll(() => row(profile).count()).toBe(1)
  expect(await violations(profile)).toEqual([])
  const arabic = (await open(dark, '?lang=ar')).page
  await expect.poll(() => row(arabic).locator('[part="scopes"] li').first().textContent()).toBe('قراءة أدواتك')
  expect(await section(arabic).evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
  expect(await row(arabic).locator('button[part~="revoke"]').textContent()).toBe('إلغاء الوصول')
  expect(await violations(arabic)).toEqual([])
  await dark.close()

  const narrow = await context({ viewport: { width: 280, height: 640 } })
  const first = await open(narrow)
  await signIn(first.page, 'cy')
  await grant(first.page)
  const small = (await open(narrow)).page
  await expect.poll(() => row(small).count()).toBe(1)
  await row(small).locator('button[part~="revoke"]').click()
  await row(small).locator('button[part~="revoke-confirm"]').waitFor()
  expect(await overflowing(small)).toEqual([])
  await narrow.close()
})
