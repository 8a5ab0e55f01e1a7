/**
 * The demo site, walked as a person would: `demo/server.ts` as a child process on free ports with a
 * temporary data folder, Chromium on http://localhost:PORT (the passkeys' RP ID). Each sign-in
 * method, two tabs, sign out, the drop-in page; screenshots in test-results/demo/. With
 * UPDATE_SCREENSHOTS=1 it also rewrites the two the README shows, in docs/screenshots/.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { smallPng } from '../../scripts/small-png.js'
import { demoSite } from './demo-site.js'
import { continueAs } from './helpers.js'

const { env, shots, docs, tab, user, status, signedInAs, signedOut, signOut, brokenImages, refreshWithinAMinute, shownErrors, withAuthenticator, withCredentials } = demoSite()
let origin: string
let dataDir: string
beforeAll(() => ({ origin, dataDir } = env.server))

describe('the demo site', () => {
  test('says what runs where', () => {
    expect(env.server.output()).toContain(`App (Vite, npm import)     ${origin}/`)
    expect(env.server.output()).toContain(`PGlite in ${join(dataDir, 'db')}`)
    expect(env.server.output()).toMatch(/Demo IdP \(OpenID Connect\)\s+http:\/\/127\.0\.0\.1:\d+/)
  })

  test('credentials: the demo account signs in and out; the panel shows expiry and next refresh', async () => {
    const page = await tab()
    await page.screenshot({ path: join(shots, 'signin.png'), fullPage: true })
    writeFileSync(join(docs, 'signin.png'), smallPng(await page.locator('main').screenshot()))
    await withCredentials(page, 'wrong')
    await page.locator('latchkey-signin [role=alert]', { hasText: 'Sign in failed' }).waitFor()
    // The error sits under the fields it is about, above the form's button, and the fields name it.
    const form = page.locator('latchkey-signin form[part~="credentials-form"]')
    const [password, error, submit] = await Promise.all(
      [form.locator('input[name=password]'), form.locator('[part="error"]'), form.locator('button[type=submit]')].map((l) => l.boundingBox()),
    )
    expect(error!.y).toBeGreaterThanOrEqual(password!.y + password!.height)
    expect(error!.y + error!.height).toBeLessThanOrEqual(submit!.y)
    const errorId = await form.locator('[part="error"]').getAttribute('id')
    expect(await form.locator('input[name=password]').getAttribute('aria-describedby')).toBe(errorId)
    expect(await form.locator('input[name=username]').getAttribute('aria-describedby')).toBe(errorId)
    await withCredentials(page)
    await signedInAs(page, 'demo@example.com')
    await expect.poll(() => page.locator('#panel-expires').textContent()).toMatch(/\d:\d\d\s[AP]M in (59 min|1 h)/)
    await refreshWithinAMinute(page)
    // No Demo IdP account, no token to call its API with: the button is not offered.
    await page.locator('latchkey-accounts button[part~="connect"]', { hasText: 'Connect Demo IdP' }).waitFor()
    expect(await page.locator('button.idp-call').isVisible()).toBe(false)
    // The demo offers a second factor to set up (mfa on).
    await page.locator('latchkey-mfa button[part~="enroll"]', { hasText: 'Set up an authenticator app' }).waitFor()
    expect(await page.locator('latchkey-signin [aria-describedby]').count()).toBe(0)
    await page.screenshot({ path: join(shots, 'credentials-signed-in.png'), fullPage: true })
    await signOut(page)
    // Nothing typed before is left for the next person: the error and the password are gone.
    await continueAs(page, 'demo')
    expect(await page.locator('latchkey-signin form[part~="credentials-form"] input[name=password]').inputValue()).toBe('')
    expect(await shownErrors(page)).toEqual([])
    await page.context().close()
  })

  test('email: the outbox shows the code beside the link, and the code signs in where the address was typed', async () => {
    const page = await tab()
    const email = `coder-${Date.now()}@example.com`
    await continueAs(page, email)
    await page.locator('latchkey-signin button', { hasText: 'Email me a sign-in code' }).click()
    const outbox = await page.context().newPage()
    await outbox.goto(origin + '/outbox')
    const mail = outbox.locator('.mail', { hasText: email })
    await mail.waitFor()
    expect(await mail.locator('a.signin-link').count()).toBe(1)
    const code = (await mail.locator('b.code').textContent())!
    expect(code).toMatch(/^\d{6}$/)
    expect(await mail.textContent()).toContain('valid for 10 min')
    await outbox.close()
    await page.locator('latchkey-signin form[part~="code-form"] input[name=code]').fill(code)
    await page.locator('latchkey-signin form[part~="code-form"] button').click()
    await signedInAs(page, email)
    await signOut(page)
    await page.context().close()
  })

  test('email: the link in the outbox signs in', async () => {
    const page = await tab()
    const email = `reader-${Date.now()}@example.com`
    await continueAs(page, email)
    await page.locator('latchkey-signin button', { hasText: 'Email me a sign-in code' }).click()
    // The confirmation heads the code step, with the way to the outbox.
    const sent = page.locator('latchkey-signin [part~="code-step"] [part~="message"]')
    await sent.filter({ hasText: `a sign-in link and a code were sent to ${email}` }).waitFor()
    expect(await sent.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')
    const link = page.locator('latchkey-signin a[slot="email-sent"]')
    expect(await link.isVisible()).toBe(true)
    expect(await link.getAttribute('href')).toBe('/outbox')
    const outbox = await page.context().newPage()
    await outbox.goto(origin + '/outbox')
    await outbox.locator('.mail', { hasText: email }).waitFor()
    await outbox.screenshot({ path: join(shots, 'outbox.png'), fullPage: true })
    const signinLink = outbox.locator('.mail', { hasText: email }).locator('a.signin-link')
    const linkUrl = (await signinLink.getAttribute('href'))!
    await signinLink.click()
    await outbox.waitForURL(origin + '/')
    await signedInAs(outbox, email)
    await refreshWithinAMinute(outbox)
    // The first tab follows.
    await signedInAs(page, email)
    // The same link again, while signed in: the server sends it to `/?error=Verification`; the
    // page says why and takes the error out of the address bar, and the session stays.
    await outbox.goto(linkUrl)
    await outbox.locator('latchkey-signin [part="error"]', { hasText: 'The sign-in link is no longer valid' }).waitFor()
    expect(await outbox.locator('latchkey-signin [part="error"]').isVisible()).toBe(true)
    await expect.poll(() => outbox.url()).toBe(origin + '/')
    await signedInAs(outbox, email)
    await signOut(outbox)
    await signedOut(page)
    await page.context().close()
  })

  test('Demo IdP: the login form at the IdP signs in over OpenID Connect', async () => {
    const page = await tab()
    await page.locator('latchkey-signin button', { hasText: 'Sign in with Demo IdP' }).click()
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
    await page.locator('input[name=email]').fill('alice@example.com')
    await page.locator('input[name=password]').fill('alice-password')
    await page.screenshot({ path: join(shots, 'idp-login.png') })
    await page.locator('button', { hasText: 'Sign in' }).click()
    await page.waitForURL(origin + '/')
    await signedInAs(page, 'alice@example.com')
    expect(await user(page).textContent()).toBe('Alice Example · alice@example.com')
    // The same settings, the same next refresh as a credentials sign-in.
    await refreshWithinAMinute(page)
    // Her picture, served by the IdP, loads.
    await page.locator('latchkey-user img[part="avatar"]').waitFor()
    await expect.poll(() => brokenImages(page)).toEqual([])
    // Her linked account, and the app calling the IdP's API with her provider token.
    await expect.poll(() => page.locator('latchkey-accounts li[part="account"]').allTextContents()).toEqual(['Demo IdPUnlink'])
    await page.locator('button.idp-call').click()
    await expect.poll(() => page.locator('.idp-result').textContent()).toBe('The IdP says: Alice Example <alice@example.com>')
    await signOut(page)
    await page.context().close()
  })

  test('passkey: add one in the profile, sign out, sign in with it', async () => {
    const { context, page } = await withAuthenticator()
    // No passkey on this device yet: the error says what to do.
    await continueAs(page, 'demo')
    await page.locator('latchkey-signin button', { hasText: 'Sign in with Passkey' }).click()
    await page.locator('latchkey-signin [role=alert]', { hasText: 'No passkey was used' }).waitFor()
    expect(await page.locator('latchkey-signin [role=alert]').textContent()).toContain('sign in another way')
    await withCredentials(page)
    await signedInAs(page, 'demo@example.com')
    // The profile's passkeys section adds one, listed by what it is, not by a credential id, with the elements' date format.
    const passkeys = page.locator('latchkey-profile latchkey-passkeys')
    await passkeys.locator('button[part~="add"]').click()
    await passkeys.locator('[part~="message"]', { hasText: 'Passkey added: next time, sign in with it.' }).waitFor()
    const listed = passkeys.locator('li[part="passkey"]')
    await expect.poll(() => listed.count()).toBe(1)
    expect(await listed.locator('[part="name"]').textContent()).toBeTruthy()
    expect(await listed.locator('[part="detail"]').textContent()).toMatch(/(^| · )added \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M$/)
    expect(await listed.locator('code').count()).toBe(0)
    await page.screenshot({ path: join(shots, 'passkey-signed-in.png'), fullPage: true })
    await signOut(page)
    // Nothing said to the last session outlives it.
    expect(await shownErrors(page)).toEqual([])
    await continueAs(page, 'demo')
    await page.locator('latchkey-signin button', { hasText: 'Sign in with Passkey' }).click()
    await signedInAs(page, 'demo@example.com')
    await refreshWithinAMinute(page)
    await signOut(page)
    await context.close()
  })

  test('two tabs: a sign-in in one shows in the other, with the events; sign out follows back', async () => {
    const a = await tab()
    const b = await tab(a.context())
    await withCredentials(a)
    await signedInAs(a, 'demo@example.com')
    await signedInAs(b, 'demo@example.com')
    await b.locator('#event-log li[data-kind=signed-in]', { hasText: 'Signed in as demo@example.com' }).waitFor()
    await b.screenshot({ path: join(shots, 'two-tabs-second.png'), fullPage: true })
    writeFileSync(join(docs, 'session-panel.png'), smallPng(await b.locator('#session').screenshot()))
    await signOut(b)
    await signedOut(a)
    await a.locator('#event-log li[data-kind=signed-out]').waitFor()
    await a.context().close()
  })

  test("notes: the app's own API behind requireSession, in two tabs", async () => {
    const a = await tab()
    const b = await tab(a.context())
    const status = (page: Page) => page.locator('#notes .notes-status')
    const notes = (page: Page) => page.locator('#notes .notes-list li').allTextContents()
    await expect.poll(() => status(a).textContent()).toBe('Sign in to see your notes.')
    expect(await a.evaluate(async () => (await fetch('/api/notes')).status)).toBe(401)
    await withCredentials(a)
    await signedInAs(b, 'demo@example.com')
    const note = `a note at ${Date.now()}`
    await a.locator('#notes input[name=text]').fill(note)
    await a.locator('#notes button[type=submit]').click()
    await expect.poll(() => notes(a)).toContain(note)
    await b.reload()
    await expect.poll(() => notes(b)).toContain(note)
    // A sign-out in one tab empties the list in every tab.
    await signOut(b)
    for (const page of [a, b]) {
      await expect.poll(() => notes(page)).toEqual([])
      await expect.poll(() => status(page).textContent()).toBe('Sign in to see your notes.')
    }
    await a.context().close()
  })

  test('React page: the same session through latchkey/react, re-rendered by a sign-in and a sign-out elsewhere', async () => {
    const app = await tab()
    const react = await app.context().newPage()
    await react.goto(`${origin}/react.html`)
    await expect.poll(() => react.locator('#react-status').textContent()).toBe('Signed out')
    await expect.poll(() => react.locator('latchkey-signin form').count()).toBeGreaterThan(0)
    await withCredentials(app)
    await expect.poll(() => react.locator('#react-status').textContent()).toBe('Signed in as demo@example.com')
    await expect.poll(() => react.locator('ul#react-notes').count()).toBe(1)
    await signOut(app)
    await expect.poll(() => react.locator('#react-status').textContent()).toBe('Signed out')
    await app.context().close()
  })

  test('drop-in page: one script tag, the same sign-in and session', async () => {
    const page = await tab()
    await page.goto(origin + '/drop-in.html')
    // The optional second script brings passkeys to the same elements.
    await continueAs(page, 'demo')
    await expect.poll(() => page.locator('latchkey-signin button[part~="passkey"]').count()).toBe(1)
    expect(await page.locator('latchkey-signin button[part~="passkey"]').isVisible()).toBe(true)
    expect(await page.evaluate(() => typeof (window as unknown as { Latchkey: { client: { passkey?: unknown } } }).Latchkey.client.passkey)).toBe('object')
    await withCredentials(page)
    await page.locator('latchkey-user', { hasText: 'Demo User' }).waitFor()
    await page.screenshot({ path: join(shots, 'drop-in.png'), fullPage: true })
    await page.goto(origin + '/')
    await signedInAs(page, 'demo@example.com')
    await signOut(page)
    await page.context().close()
  })

  test('signed out, an ?error= in the URL is said under the form it is about, and leaves the address bar', async () => {
    const page = await tab()
    await page.goto(origin + '/?error=Verification')
    const form = page.locator('latchkey-signin form[part~="identifier-form"]')
    await form.locator('[part="error"]', { hasText: 'The sign-in link is no longer valid' }).waitFor()
    expect(await form.locator('input[part~="identifier"]').getAttribute('aria-describedby')).toBe(await form.locator('[part="error"]').getAttribute('id'))
    await expect.poll(() => page.url()).toBe(origin + '/')
    await page.reload()
    await signedOut(page)
    expect(await shownErrors(page)).toEqual([])
    await page.context().close()
  })

  test('no page logs an error or misses a file, the IdP\'s sign-in page included; each lists every page', async () => {
    const page = await (await env.browser.newContext({ viewport: { width: 1024, height: 900 } })).newPage()
    const problems: string[] = []
    page.on('console', (m) => m.type() === 'error' && problems.push(`${page.url()}: ${m.text()}`))
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`))
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`))
    for (const path of ['/', '/react.html', '/drop-in.html', '/outbox']) {
      await page.goto(origin + path)
      await page.waitForLoadState('networkidle')
      expect(await page.locator('header nav a').allTextContents(), path).toEqual(['App', 'React page', 'Drop-in page', 'Outbox'])
    }
    await page.goto(origin + '/')
    await page.locator('latchkey-signin button', { hasText: 'Sign in with Demo IdP' }).click()
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
    await page.waitForLoadState('networkidle')
    expect(problems).toEqual([])
    await page.context().close()
  })

  test('wide, the session panel stands beside the sign-in card; narrow, below it; the React page is centred', async () => {
    const boxes = async (width: number) => {
      const page = await (await env.browser.newContext({ viewport: { width, height: 900 } })).newPage()
      await page.goto(origin + '/')
      await signedOut(page)
      const [account, session, notes] = await Promise.all(['#account', '#session', '#notes'].map((id) => page.locator(id).boundingBox()))
      await page.goto(origin + '/react.html')
      const card = await page.locator('#root > section.card').boundingBox()
      await page.context().close()
      return { account: account!, session: session!, notes: notes!, card: card! }
    }
    const wide = await boxes(1600)
    expect(wide.session.x).toBeGreaterThanOrEqual(wide.account.x + wide.account.width)
    expect(wide.session.y).toBe(wide.account.y)
    // The notes under the session, in the same column.
    expect(wide.notes.x).toBe(wide.session.x)
    expect(wide.notes.y).toBeGreaterThan(wide.session.y + wide.session.height)
    expect(Math.abs(wide.card.x + wide.card.width / 2 - 800)).toBeLessThan(2)
    const narrow = await boxes(390)
    expect(narrow.session.x).toBe(narrow.account.x)
    expect(narrow.session.y).toBeGreaterThanOrEqual(narrow.account.y + narrow.account.height)
    expect(narrow.notes.y).toBeGreaterThanOrEqual(narrow.session.y + narrow.session.height)
  })

  test('at 390 px wide no page scrolls sideways, the drop-in code shows whole, and every image loads', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 800 } })
    const page = await context.newPage()
    for (const path of ['/', '/react.html', '/drop-in.html', '/outbox']) {
      await page.goto(origin + path)
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
      expect(await brokenImages(page), path).toEqual([])
    }
    await page.goto(origin + '/drop-in.html')
    expect(await page.locator('pre').evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBe(0)
    expect(await page.locator('pre').textContent()).toContain('data-service-worker="/latchkey-sw.js"')
    await page.goto(origin + '/')
    await page.screenshot({ path: join(shots, 'narrow.png'), fullPage: true })
    await context.close()
  })

  test('Ctrl-C stops every part and keeps the data', async () => {
    expect(await env.server.stop()).toBe(0)
    expect(env.server.output()).toContain(`stopped; the data stays in ${join(dataDir, 'db')}`)
    expect(existsSync(join(dataDir, 'db', 'PG_VERSION'))).toBe(true)
  })
})
