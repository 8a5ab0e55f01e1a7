/**
 * The elements with assistive technology in mind, in Chromium: axe-core (injected into the page;
 * it looks inside open shadow roots) finds no WCAG 2.x A/AA violation signed out (every
 * provider), with an error shown, on the second-factor step, on the password sign-up, forgot and
 * reset steps, signed in (user, sessions with items, accounts, mfa), in dark mode, and in Arabic
 * (right to left). The
 * keyboard alone (Tab, Enter, Space) signs in with credentials, ends another session and signs
 * out, the focus checked after each step. "Last used" marks the provider of the last sign-in on
 * this device. The demo's pages as a whole (demo/, its own chrome included, and the server's and
 * the Demo IdP's pages a visitor reaches from it) have no violation either, and the keyboard alone
 * signs in there with an emailed code and with a passkey.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { secretOf, totp } from '../support/totp.js'
import { violations } from './axe.js'
import { addAuthenticator, browserAndServer, continueAs, deepFocus, focusedAt, openPage, sendSignInEmail, signInWithForm, startDemo, statusOf, tabUntil, userName, type Demo } from './helpers.js'

const env = browserAndServer({ mfa: true, password: true, maxAge: 600, updateAge: 60 })

const signin = (page: Page) => page.locator('latchkey-signin')
const part = (page: Page, name: string) => signin(page).locator(`[part~="${name}"]`)

const clean = async (page: Page, what: string) => expect(await violations(page), what).toEqual([])

/** The page with every element: the test page's sign-in, user and mfa elements, plus sessions and accounts. */
async function fullPage(context: BrowserContext, query = ''): Promise<Page> {
  const page = await openPage(context, env.server.url + '/' + query)
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<latchkey-sessions></latchkey-sessions><latchkey-accounts></latchkey-accounts>'))
  await expect.poll(() => part(page, 'identifier-form').isVisible()).toBe(true)
  return page
}

/** Whether the focus is on `selector` inside `host`'s shadow root. */
const focusedIn = (page: Page, host: string, selector: string) =>
  page.evaluate(([h, s]) => {
    const root = document.querySelector(h!)!.shadowRoot!
    return !!root.activeElement && root.activeElement === root.querySelector(s!)
  }, [host, selector])

/** Presses Tab until the focus is on `selector` in `host` (at most `max` times); answers the presses. */
async function tabTo(page: Page, host: string, selector: string, max = 40): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab')
    if (await focusedIn(page, host, selector)) return i
  }
  throw new Error(`Tab never reached ${selector} in ${host}`)
}

test('signed out, with every provider: no violations, light and dark', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  expect(await signin(page).locator('button[data-provider]').count()).toBe(2)
  await clean(page, 'signed out')
  // axe does look inside shadow roots: an unlabelled field and a 10px button there are found.
  await page.evaluate(() => {
    const host = document.body.appendChild(document.createElement('div'))
    host.id = 'bad'
    host.attachShadow({ mode: 'open' }).innerHTML = '<input><button style="width:10px;height:10px;padding:0;border:0;position:absolute;left:0;top:0"></button>'
  })
  const found = (await violations(page)).join('\n')
  expect(found).toMatch(/^label /m)
  expect(found).toMatch(/^button-name /m)
  await page.evaluate(() => document.getElementById('bad')!.remove())
  // The step after an address: every other way in (password, email, credentials, passkey).
  const primary = part(page, 'continue')
  const light = await primary.evaluate((el) => getComputedStyle(el).backgroundColor)
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'signed out, dark')
  // Dark mode (the page's color-scheme) changes the elements' own colours.
  expect(await primary.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(light)
  await continueAs(page, 'every@example.com')
  expect(await part(page, 'ways-step').locator('[data-provider]').count()).toBe(3)
  await clean(page, 'the ways offered, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await clean(page, 'the ways offered')
  await context.close()
})

test('errors shown: no violations, and the error is tied to its fields', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context, '?error=Configuration')
  await expect.poll(() => part(page, 'error').isVisible()).toBe(true)
  await clean(page, 'an error from the URL')
  await signInWithForm(page, 'ana', 'wrong')
  const error = part(page, 'error')
  const described = signin(page).locator('form[part~="credentials-form"] input[name="username"]')
  await expect.poll(() => described.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'))
  expect(await error.isVisible()).toBe(true)
  expect(await error.getAttribute('role')).toBe('alert')
  await clean(page, 'a refused sign-in')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'a refused sign-in, dark')
  await context.close()
})

test('the password steps (sign-up, confirm, forgot, reset): no violations', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  await part(page, 'signup').click()
  await expect.poll(() => part(page, 'signup-step').isVisible()).toBe(true)
  await clean(page, 'sign-up')
  await part(page, 'signup-form').locator('input[name="email"]').fill('pat@example.com')
  await part(page, 'signup-form').locator('input[name="password"]').fill('a long enough password')
  await part(page, 'signup-form').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'verify-step').isVisible()).toBe(true)
  await clean(page, 'confirm the address')
  await part(page, 'verify-step').locator('[part~="back"]').click()
  await part(page, 'forgot').click()
  await expect.poll(() => part(page, 'forgot-step').isVisible()).toBe(true)
  await clean(page, 'forgot')
  await part(page, 'forgot-form').locator('input[name="email"]').fill('pat@example.com')
  await part(page, 'forgot-form').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'reset-form').isVisible()).toBe(true)
  await clean(page, 'reset')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'reset, dark')
  await context.close()
})

test('the second-factor step, and signed in with every element showing items: no violations', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  // Another device, so the sessions list has two items.
  const other = await env.browser.newContext()
  await signInWithForm(await openPage(other, env.server.url + '/'), 'mo')
  await signInWithForm(page, 'mo')
  await expect.poll(() => userName(page).textContent()).toBe('mo')
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(2)
  await expect.poll(() => page.locator('latchkey-accounts button[part~="connect"]').count()).toBeGreaterThan(0)
  await clean(page, 'signed in')
  // Set up an app: the enrolment, then the recovery codes, then the list with a factor.
  const mfa = page.locator('latchkey-mfa')
  await mfa.locator('button[part~="enroll"]').click()
  const link = mfa.locator('a[part="link"]')
  await expect.poll(() => link.isVisible()).toBe(true)
  await clean(page, 'enrolment')
  const secret = secretOf((await link.getAttribute('href'))!)
  await mfa.locator('form[part~="enroll-form"] input').fill(totp(secret, env.server.now()))
  await mfa.locator('form[part~="enroll-form"] button[type="submit"]').click()
  await expect.poll(() => mfa.locator('[part="codes"] li').count()).toBe(10)
  await clean(page, 'recovery codes')
  await mfa.locator('button[part~="done"]').click()
  await expect.poll(() => mfa.locator('li[part="factor"]').count()).toBe(1)
  await clean(page, 'the factors')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'signed in, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  // The next sign-in asks for the code.
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  await signInWithForm(page, 'mo')
  await expect.poll(() => part(page, 'mfa-step').isVisible()).toBe(true)
  await clean(page, 'the second-factor step')
  await part(page, 'mfa-step').locator('input[name="code"]').fill('000000')
  await part(page, 'mfa-step').locator('button[type="submit"]').click()
  await expect.poll(() => part(page, 'mfa-step').locator('[part~="error"]').isVisible()).toBe(true)
  await clean(page, 'the second-factor step, a wrong code')
  await Promise.all([context.close(), other.close()])
})

test('in Arabic, right to left: no violations signed out, with an error, and signed in with lists, light and dark', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  // The page turns Arabic: every element follows its <html lang>.
  await page.evaluate(() => (document.documentElement.lang = 'ar'))
  const spoken = (host: string) => page.locator(`${host} [lang="ar"][dir="rtl"]`)
  for (const host of ['latchkey-signin', 'latchkey-user', 'latchkey-mfa']) await expect.poll(() => spoken(host).count(), { message: host }).toBe(1)
  expect(await spoken('latchkey-signin').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
  expect(await part(page, 'identifier-form').getAttribute('aria-label')).toMatch(/[\u0600-\u06ff]/)
  await clean(page, 'Arabic, signed out')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'Arabic, signed out, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await signInWithForm(page, 'ana', 'wrong')
  await expect.poll(() => part(page, 'error').isVisible()).toBe(true)
  expect(await part(page, 'error').textContent()).toMatch(/[\u0600-\u06ff]/)
  await clean(page, 'Arabic, a refused sign-in')
  const other = await env.browser.newContext()
  await signInWithForm(await openPage(other, env.server.url + '/'), 'rana')
  await signInWithForm(page, 'rana')
  await expect.poll(() => userName(page).textContent()).toBe('rana')
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(2)
  expect(await page.locator('latchkey-sessions [part~="end-others"]').textContent()).toMatch(/[\u0600-\u06ff]/)
  await clean(page, 'Arabic, signed in')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean(page, 'Arabic, signed in, dark')
  await Promise.all([context.close(), other.close()])
})

test('the keyboard alone: credentials sign-in, ending another session, sign-out; the focus after each step', async () => {
  const other = await env.browser.newContext()
  await signInWithForm(await openPage(other, env.server.url + '/'), 'kay')
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-signin', 'input[part~="identifier"]')
  await page.keyboard.type('kay')
  await page.keyboard.press('Enter')
  // The next step: the focus in its first field.
  await expect.poll(() => focusedIn(page, 'latchkey-signin', 'form[part~="credentials-form"] input[name="password"]')).toBe(true)
  await page.keyboard.type('secret')
  await page.keyboard.press('Enter')
  await expect.poll(() => userName(page).textContent()).toBe('kay')
  // The sign-in form went away with the focus in it: the focus goes to the user element's sign-out.
  await expect.poll(() => focusedIn(page, 'latchkey-user', 'button[part~="signout"]')).toBe(true)
  // End the other device's session: Tab to its button, Space.
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(2)
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-sessions', 'li:not([data-current]) button')
  await page.keyboard.press('Space')
  await expect.poll(() => page.locator('latchkey-sessions li[part="session"]').count()).toBe(1)
  // The row went with the focus: it goes to the list's next button, this device's.
  await expect.poll(() => focusedIn(page, 'latchkey-sessions', 'li[data-current] button')).toBe(true)
  // Sign out from the user element: Tab to it, Enter.
  await page.mouse.click(1, 1)
  await tabTo(page, 'latchkey-user', 'button[part~="signout"]')
  await page.keyboard.press('Enter')
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  // Signed out, the focus is back on the sign-in element's first field.
  await expect.poll(() => page.evaluate(() => document.activeElement?.localName)).toBe('latchkey-signin')
  await Promise.all([context.close(), other.close()])
})

test('"Last used" marks the provider of the last sign-in on this device, in words', async () => {
  const context = await env.browser.newContext()
  const page = await fullPage(context)
  expect(await part(page, 'last-used').count()).toBe(0)
  await signInWithForm(page, 'lu')
  await expect.poll(() => statusOf(page)).toBe('authenticated')
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => statusOf(page)).toBe('unauthenticated')
  const badge = part(page, 'last-used')
  await continueAs(page, 'lu')
  await expect.poll(() => badge.count()).toBe(1)
  expect(await badge.textContent()).toBe('Last used')
  expect(await badge.isVisible()).toBe(true)
  // On the credentials form, and it survives a reload (localStorage, no cookie).
  expect(await signin(page).locator('form[part~="credentials-form"] [part~="last-used"]').count()).toBe(1)
  expect((await context.cookies()).some((c) => /last/i.test(c.name))).toBe(false)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await continueAs(page, 'lu')
  await expect.poll(() => signin(page).locator('form[part~="credentials-form"] [part~="last-used"]').count()).toBe(1)
  await clean(page, 'with the badge')
  await context.close()
})

describe("the demo's pages", () => {
  let demo: Demo
  beforeAll(async () => {
    demo = await startDemo()
  }, 120_000)
  afterAll(() => demo?.close())

  const status = (page: Page) => page.locator('#panel-status')
  /** A demo page, loaded with its requests settled (and, on the app's page, the session read). */
  async function visit(page: Page, path: string): Promise<Page> {
    await page.goto(demo.origin + path)
    await page.waitForLoadState('networkidle')
    if (path === '/') await expect.poll(() => status(page).textContent()).not.toBe('Loading…')
    return page
  }
  const signedIn = (page: Page) => expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toContain('Signed in')
  const signedOut = (page: Page) => expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toContain('Signed out')

  test('every page, signed out and signed in, in each state a visitor brings it to: no violations, the chrome included', async () => {
    // The server's pages forbid scripts of their own (CSP): axe goes in past it.
    const context = await env.browser.newContext({ viewport: { width: 1120, height: 900 }, bypassCSP: true })
    const page = await context.newPage()
    await addAuthenticator(page)
    const stamp = Date.now()
    const found: string[] = []
    const scan = async (what: string) => found.push(...(await violations(page)).map((v) => `${what}: ${v}`))
    const signin = page.locator('latchkey-signin')

    for (const path of ['/', '/react.html', '/drop-in.html', '/outbox']) {
      await visit(page, path)
      await scan(`${path} signed out`)
    }
    // The server's own pages.
    for (const path of ['/auth/signin', '/auth/verify-request', '/auth/error', '/auth/error?error=Verification']) {
      await visit(page, path)
      await scan(path)
    }
    await visit(page, '/?error=Verification')
    await signin.locator('[part="error"]', { hasText: 'no longer valid' }).waitFor()
    await scan('/ with an error')
    // An email sent: the message, the outbox link in the element's slot, the code field.
    await visit(page, '/')
    await sendSignInEmail(page, `axe-link-${stamp}@example.com`)
    await signin.locator('form[part~="code-form"]').waitFor()
    await scan('/ an email sent')
    // A password sign-up, waiting for the address to be confirmed.
    await visit(page, '/')
    await signin.locator('button[part~="signup"]').click()
    await signin.locator('form[part~="signup-form"] input[name=email]').fill(`axe-${stamp}@example.com`)
    await signin.locator('form[part~="signup-form"] input[name=password]').fill('a long enough passphrase')
    await signin.locator('form[part~="signup-form"] button[type=submit]').click()
    await signin.locator('form[part~="verify-form"]').waitFor()
    await scan('/ the address to confirm')
    await visit(page, '/outbox')
    const letter = page.locator('li.letter', { hasText: `axe-${stamp}@` })
    await letter.waitFor()
    await scan('/outbox with emails')
    // The sign-in link opened in another browser asks first; the confirm link shows its button.
    const link = (await page.locator('li.mail', { hasText: `axe-link-${stamp}@` }).locator('a.signin-link').getAttribute('href'))!
    await letter.locator('a.mail-link').click()
    await page.locator('button', { hasText: 'Confirm my address' }).waitFor()
    await scan('the confirm-address page')
    const elsewhere = await env.browser.newContext({ bypassCSP: true })
    const other = await elsewhere.newPage()
    await other.goto(link)
    await other.locator('form button').waitFor()
    found.push(...(await violations(other)).map((v) => `the sign-in link's page in another browser: ${v}`))
    await elsewhere.close()

    // The Demo IdP's sign-in page, then signed in with a linked account and an avatar.
    await visit(page, '/')
    await signin.locator('button', { hasText: 'Sign in with Demo IdP' }).click()
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
    await scan('the Demo IdP sign-in page')
    await page.locator('input[name=email]').fill('alice@example.com')
    await page.locator('input[name=password]').fill('alice-password')
    await page.locator('button', { hasText: 'Sign in' }).click()
    await page.waitForURL(demo.origin + '/')
    await signedIn(page)
    await expect.poll(() => page.locator('latchkey-accounts li[part="account"]').count()).toBe(1)
    // With a passkey in the list.
    await page.locator('latchkey-profile latchkey-passkeys button[part~="add"]').click()
    await expect.poll(() => page.locator('latchkey-profile latchkey-passkeys li[part="passkey"]').count()).toBe(1)
    await page.waitForLoadState('networkidle')
    await scan('/ signed in')
    for (const path of ['/react.html', '/drop-in.html', '/auth/signout']) {
      await visit(page, path)
      await scan(`${path} signed in`)
    }
    // The event log, once it holds more than it shows, scrolls.
    await visit(page, '/')
    for (let i = 0; i < 6; i++) {
      // The demo's console client (`latchkey`), to make the events quickly.
      await page.evaluate(() => (window as unknown as { latchkey: Window['client'] }).latchkey.signOut({ redirect: false }))
      await signedOut(page)
      await page.evaluate(() => (window as unknown as { latchkey: Window['client'] }).latchkey.signIn('credentials', { username: 'demo', password: 'demo', redirect: false }))
      await signedIn(page)
    }
    expect(await page.locator('.log').evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(0)
    await scan('/ with a long event log')
    await page.setViewportSize({ width: 390, height: 800 })
    for (const path of ['/', '/react.html', '/drop-in.html', '/outbox']) {
      await visit(page, path)
      await scan(`${path} 390 px`)
    }
    expect(found).toEqual([])
    await context.close()
  }, 90_000)

  /** The code of the newest email to `email`, read from the outbox page (its HTML, no extra tab to take the focus). */
  async function codeFor(email: string): Promise<string> {
    let code: string | undefined
    await expect.poll(async () => {
      const html = await (await fetch(demo.origin + '/outbox')).text()
      const mail = html.split('<li class="mail').find((item) => item.includes(`To ${email}<`))
      return (code = /<b class="code">(\d{6})<\/b>/.exec(mail ?? '')?.[1])
    }).toMatch(/^\d{6}$/)
    return code!
  }

  const signoutButton = ['latchkey-user', 'button[part~="signout"]']

  test('the keyboard alone: an emailed code signs in; the focus after each step', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1120, height: 900 } })
    const page = await visit(await context.newPage(), '/')
    await signedOut(page)
    const email = `keys-${Date.now()}@example.com`
    await tabUntil(page, ['latchkey-signin', 'input[part~="identifier"]'])
    await page.keyboard.type(email)
    await page.keyboard.press('Enter')
    // The ways offered for an address: the email way among them.
    await tabUntil(page, ['latchkey-signin', 'form[part~="email-form"] button'])
    await page.keyboard.press('Enter')
    // The email went out: the code step, with the focus in its field.
    await expect.poll(() => deepFocus(page)).toBe('latchkey-signin > input[name=code]')
    expect(await focusedAt(page, 'latchkey-signin', 'form[part~="code-form"] input[name="code"]')).toBe(true)
    await page.keyboard.type(await codeFor(email))
    await page.keyboard.press('Enter')
    await signedIn(page)
    expect(await page.locator('#panel-user').textContent()).toContain(email)
    // The form went away with the focus in it: the focus goes to the user element's sign-out.
    await expect.poll(() => focusedAt(page, ...signoutButton)).toBe(true)
    await context.close()
  })

  test('the keyboard alone: a passkey signs in, by Enter and by Space; the focus after each step', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1120, height: 900 } })
    const page = await context.newPage()
    await addAuthenticator(page)
    await visit(page, '/')
    await signedOut(page)
    // A user with a passkey, by the keyboard too: the demo account signs in (the focus goes on to
    // the password after Continue), then adds one in the profile.
    await tabUntil(page, ['latchkey-signin', 'input[part~="identifier"]'])
    await page.keyboard.type('demo')
    await page.keyboard.press('Enter')
    await expect.poll(() => focusedAt(page, 'latchkey-signin', 'input[name="password"]')).toBe(true)
    await page.keyboard.type('demo')
    await page.keyboard.press('Enter')
    await signedIn(page)
    await tabUntil(page, ['latchkey-profile', 'latchkey-passkeys', 'button[part~="add"]'], { max: 120 })
    await page.keyboard.press('Enter')
    await page.locator('latchkey-profile latchkey-passkeys [part~="message"]', { hasText: 'Passkey added' }).waitFor()
    const [username, email] = ['demo', 'demo@example.com']
    for (const key of ['Enter', 'Space']) {
      await tabUntil(page, signoutButton)
      await page.keyboard.press('Enter')
      await signedOut(page)
      // Signed out, the focus is back on the sign-in element.
      await expect.poll(() => page.evaluate(() => document.activeElement?.localName)).toBe('latchkey-signin')
      await tabUntil(page, ['latchkey-signin', 'input[part~="identifier"]'])
      await page.keyboard.type(username)
      await page.keyboard.press('Enter')
      await tabUntil(page, ['latchkey-signin', 'button[part~="passkey"]'])
      await page.keyboard.press(key)
      await signedIn(page)
      expect(await page.locator('#panel-user').textContent(), key).toContain(email)
      await expect.poll(() => focusedAt(page, ...signoutButton)).toBe(true)
    }
    await context.close()
  })
})
