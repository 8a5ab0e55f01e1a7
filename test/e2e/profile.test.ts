/**
 * `<latchkey-profile>` and `<latchkey-passkeys>` in Chromium, against the test app (its settings
 * page: test/e2e/profile-page.ts): every section for a user with a password, a passkey and an
 * authenticator app; a section whose plugin the client lacks, or whose feature the server lacks,
 * left out; adding (Chromium's virtual authenticator, on http://localhost:PORT), renaming and
 * removing a passkey; a destructive action on a stale session asks to sign in again, says why,
 * and runs once confirmed; the keyboard alone reaches and works every action; axe finds no
 * violation, light and dark, in Arabic too; nothing overflows 280 px with a 64-character address;
 * a sign-in on the page shows in the sections at once (a browser it trusted, in the two-step one).
 */
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { violations } from './axe.js'
import { totp } from '../support/totp.js'
import { addAuthenticator, browserAndServer, focusedAt, overflowing, signInWithForm, tabUntil } from './helpers.js'
import { fullUser, newPassword, plantPasskey, profilePage, signIn } from './profile-page.js'

const options = { mfa: true, password: true, maxAge: 7 * 86400, updateAge: 86400, pages: { '/profile': profilePage } }
const env = browserAndServer(options)
/** A server without `mfa` and without a `Password()` provider. */
let bare: AppServer
beforeAll(async () => void (bare = await startAppServer({ ...options, mfa: false, password: false })))
afterAll(() => bare?.close())

interface Opened { context: BrowserContext; page: Page; consoleErrors: string[]; uncaught: string[] }

/** The settings page (`query`: ?show=, ?without=) in a new context of its own. */
async function open(query = '', { server = env.server, viewport, authenticator = false }: { server?: AppServer; viewport?: { width: number; height: number }; authenticator?: boolean } = {}): Promise<Opened> {
  const context = await env.browser.newContext(viewport && { viewport })
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const uncaught: string[] = []
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
  page.on('pageerror', (e) => uncaught.push(e.message))
  if (authenticator) await addAuthenticator(page)
  await page.goto(server.url + '/profile' + query)
  await page.waitForFunction(() => window.ready === true)
  return { context, page, consoleErrors, uncaught }
}

/** The page anew: the elements read what the client changed behind their back. */
async function reload(page: Page) {
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
}

const profile = (page: Page) => page.locator('latchkey-profile')
const section = (page: Page, id: string) => profile(page).locator(`section[part~="${id}"]`)
const headings = (page: Page) => profile(page).locator('section > [part="heading"]')
/** An element's own error line (the sign-in a confirmation shows inside it has one too). */
const errorOf = (page: Page, ...path: string[]) =>
  page.evaluate((path) => {
    let root: Document | ShadowRoot = document
    for (const host of path) root = root.querySelector(host)!.shadowRoot!
    const error = root.getElementById('error')!
    return error.hidden ? null : error.textContent
  }, path)
const stored = (page: Page) => page.evaluate(async () => (await window.client.passkey.list()).map((p) => p.name ?? p.authenticator))
/** Every section has what it lists (the elements read their lists once the session is there). */
async function loaded(page: Page) {
  await expect.poll(() => section(page, 'passkeys').locator('li[part="passkey"]').count()).toBeGreaterThan(0)
  await expect.poll(() => section(page, 'mfa').locator('li[part="factor"]').count()).toBe(1)
  await expect.poll(() => section(page, 'sessions').locator('li[part="session"]').count()).toBeGreaterThan(0)
  await expect.poll(() => section(page, 'password').locator('button[part~="open"]').textContent()).toBe('Change password')
}

test('a user with a password, a passkey and an authenticator app: every section shows, with its items', async () => {
  const { context, page, consoleErrors, uncaught } = await open()
  await fullUser(page, env.server, 'pia')
  await reload(page)
  await expect.poll(() => headings(page).allTextContents()).toEqual(['Profile', 'Password', 'Passkeys', 'Two-step verification', 'Devices', 'Connected accounts'])
  expect(await headings(page).evaluateAll((all) => all.map((h) => h.localName))).toEqual(Array(6).fill('h2'))
  await loaded(page)
  expect(await section(page, 'identity').locator('[part~="email"]').textContent()).toBe('pia@example.com')
  expect(await section(page, 'identity').locator('[part~="name"]').textContent()).toBe('pia')
  expect(await section(page, 'password').locator('[part~="state"]').textContent()).toBe('You can sign in with your email and password.')
  // The passkey's name from its AAGUID, what it is, and its icon.
  const passkey = section(page, 'passkeys').locator('li[part="passkey"]')
  expect(await passkey.locator('[part="name"]').textContent()).toBe('Google Password Manager')
  expect(await passkey.locator('[part="detail"]').textContent()).toMatch(/^Synced passkey · added /)
  expect(await passkey.locator('svg[part~="icon"]').getAttribute('part')).toBe('icon synced')
  expect(await section(page, 'sessions').locator('li[part="session"][data-current] [part="device"]').textContent()).toMatch(/\(this device\)$/)
  expect(await section(page, 'accounts').locator('button[part~="connect"]').count()).toBe(2)
  // One filled button per section at most.
  for (const id of ['password', 'passkeys', 'mfa', 'sessions', 'accounts']) {
    const filled = await section(page, id).evaluate((s) => {
      const all: Element[] = []
      const walk = (root: ParentNode) => root.querySelectorAll('*').forEach((el) => (all.push(el), el.shadowRoot && walk(el.shadowRoot)))
      walk(s)
      return all.filter((el) => el.localName === 'button' && (el as HTMLElement).offsetParent && getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)').length
    })
    expect(filled, id).toBeLessThanOrEqual(1)
  }
  expect(await profile(page).locator('[part="error"]:visible').count()).toBe(0)
  expect([consoleErrors, uncaught]).toEqual([[], []])
  await context.close()
})

test('a sign-in on the page that trusts this browser shows in the two-step section, without a reload', async () => {
  const { context, page, uncaught } = await open('?show=latchkey-signin&show=latchkey-profile')
  const secret = await fullUser(page, env.server, 'tia')
  const mfa = section(page, 'mfa').locator('latchkey-mfa')
  // The section read the user's state at the first sign-in; signed out, the profile hides it.
  await expect.poll(() => mfa.locator('button[part~="enroll"]').isVisible()).toBe(true)
  expect(await mfa.locator('[part="device"]').count()).toBe(0)
  await page.evaluate(() => window.client.signOut({ redirect: false }))
  await expect.poll(() => section(page, 'mfa').count()).toBe(0)
  // The same user signs in again on this page, with the app's code, and trusts this browser.
  env.server.advance(30_000)
  await signInWithForm(page, 'tia')
  const step = page.locator('latchkey-signin [part~="mfa-step"]')
  await step.locator('input[part~="trust-device"]').check()
  await step.locator('input[name="code"]').fill(totp(secret, env.server.now()))
  await step.locator('button[type="submit"]').click()
  // The section reads the new sign-in's state: the app, and this browser trusted.
  await expect.poll(() => mfa.locator('[part="device"] [part="name"]').allTextContents()).toEqual([expect.stringMatching(/\(this device\)$/)])
  expect(await mfa.locator('[part="factor"]').count()).toBe(1)
  // (The console has the sign-in's 401, the server asking for the second step.)
  expect(uncaught).toEqual([])
  await context.close()
})

test('a section whose plugin the client lacks, or whose feature the server lacks, is left out; alone, the element names the missing plugin', async () => {
  const lacking = await open('?without=passkey&without=mfa&without=password')
  await signIn(lacking.page, 'lou')
  await expect.poll(() => headings(lacking.page).allTextContents()).toEqual(['Profile', 'Devices', 'Connected accounts'])
  await expect.poll(() => section(lacking.page, 'sessions').locator('li[part="session"]').count()).toBeGreaterThan(0)
  expect(await profile(lacking.page).locator('[part="error"]:visible').count()).toBe(0)
  expect([lacking.consoleErrors, lacking.uncaught]).toEqual([[], []])
  // <latchkey-passkeys> alone, without its plugin: as every element, it says so (PluginMissing) and nothing throws.
  await lacking.page.evaluate(() => document.querySelector('main')!.append(document.createElement('latchkey-passkeys')))
  await expect.poll(() => errorOf(lacking.page, 'latchkey-passkeys')).toBe('That did not work. Please try again.')
  expect(lacking.consoleErrors.filter((m) => m.includes('<latchkey-passkeys> needs the passkey plugin: createAuthClient({ plugins: [passkey()] })'))).toHaveLength(1)
  expect(lacking.uncaught).toEqual([])
  await lacking.context.close()

  // Every plugin, but a server without mfa and without passwords: those sections go, with no error,
  // and the server's plugin list (asked once) keeps the two-step section from asking the mfa routes at all.
  const count = (match: RegExp) => [...bare.requests].filter(([key]) => match.test(key)).reduce((n, [, c]) => n + c, 0)
  const [listsBefore, mfaBefore] = [count(/^GET \/auth\/plugins$/), count(/ \/auth\/mfa(\/|$)/)]
  const plain = await open('', { server: bare })
  await signIn(plain.page, 'lou')
  await expect.poll(() => headings(plain.page).allTextContents()).toEqual(['Profile', 'Passkeys', 'Devices', 'Connected accounts'])
  await expect.poll(() => section(plain.page, 'sessions').locator('li[part="session"]').count()).toBeGreaterThan(0)
  await bare.idle()
  expect(await profile(plain.page).locator('latchkey-mfa').count()).toBe(0)
  expect([count(/^GET \/auth\/plugins$/) - listsBefore, count(/ \/auth\/mfa(\/|$)/) - mfaBefore]).toEqual([1, 0])
  expect(await profile(plain.page).locator('[part="error"]:visible').count()).toBe(0)
  expect([plain.consoleErrors, plain.uncaught]).toEqual([[], []])
  await plain.context.close()
})

test('<latchkey-passkeys>: add one with the browser, rename it (Enter saves), remove it (asked first)', async () => {
  const { context, page } = await open('?show=latchkey-passkeys', { authenticator: true })
  await signIn(page, 'rey')
  const el = page.locator('latchkey-passkeys')
  await expect.poll(() => el.locator('[part~="empty"]').textContent()).toBe('No passkeys yet.')
  await el.locator('button[part~="add"]').click()
  await expect.poll(() => el.locator('li[part="passkey"]').count()).toBe(1)
  expect(await el.locator('[role="status"]').textContent()).toBe('Passkey added: next time, sign in with it.')
  // The virtual authenticator is no known model, and keeps its passkey on this one device.
  expect(await el.locator('li[part="passkey"] [part="name"]').textContent()).toBe('Passkey on one device')
  expect(await stored(page)).toEqual(['Passkey'])

  await el.locator('button[part~="rename"]').click()
  await expect.poll(() => focusedAt(page, 'latchkey-passkeys', 'form[part~="rename-form"] input')).toBe(true)
  await page.keyboard.type('Work laptop')
  await page.keyboard.press('Enter')
  await expect.poll(() => el.locator('li[part="passkey"] [part="name"]').textContent()).toBe('Work laptop')
  expect(await el.locator('li[part="passkey"] [part="detail"]').textContent()).toMatch(/^Passkey on one device · added /)
  expect(await stored(page)).toEqual(['Work laptop'])
  await expect.poll(() => focusedAt(page, 'latchkey-passkeys', 'button[part~="rename"]')).toBe(true)
  expect(await el.locator('[role="status"]').textContent()).toBe('Passkey renamed.')
  // Escape leaves a rename without saving.
  await el.locator('button[part~="rename"]').click()
  await page.keyboard.type(' (old)')
  await page.keyboard.press('Escape')
  await expect.poll(() => el.locator('form[part~="rename-form"]').count()).toBe(0)
  expect(await stored(page)).toEqual(['Work laptop'])

  await el.locator('button[part~="remove"]').click()
  const ask = el.locator('[part~="remove-ask"]')
  expect(await ask.locator('[part="message"]').textContent()).toBe('Remove “Work laptop”? You will no longer sign in with it.')
  await expect.poll(() => focusedAt(page, 'latchkey-passkeys', 'button[part~="remove-confirm"]')).toBe(true)
  expect(await stored(page)).toEqual(['Work laptop'])
  // Her only way in but the passkey is the test's credentials provider, which keeps no way in: refused, in words.
  await ask.locator('button[part~="remove-confirm"]').click()
  await expect.poll(() => errorOf(page, 'latchkey-passkeys')).toBe('This is your last way to sign in. Connect another account or add a passkey first.')
  expect(await stored(page)).toEqual(['Work laptop'])
  // With another passkey, it goes; the list left is the server's.
  await plantPasskey(env.server, 'rey')
  await ask.locator('button[part~="remove-confirm"]').click()
  await expect.poll(() => el.locator('li[part="passkey"] [part="name"]').allTextContents()).toEqual(['Google Password Manager'])
  expect(await el.locator('[role="status"]').textContent()).toBe('Passkey removed.')
  expect(await errorOf(page, 'latchkey-passkeys')).toBeNull()
  expect(await stored(page)).toEqual(['Google Password Manager'])
  // The focus goes on to what now stands there.
  await expect.poll(() => focusedAt(page, 'latchkey-passkeys', 'li[part="passkey"] button[part~="rename"]')).toBe(true)
  await context.close()
})

test('a stale session: removing a passkey asks to sign in again and says why, changes nothing, and once confirmed there removes it', async () => {
  const { context, page } = await open('?show=latchkey-passkeys&show=latchkey-password')
  await signIn(page, 'sal')
  await plantPasskey(env.server, 'sal')
  await page.evaluate((password) => window.client.password.set({ password }), newPassword)
  await reload(page)
  await page.evaluate(() => {
    ;(window as unknown as { asked: string[] }).asked = []
    document.addEventListener('latchkey-confirm-needed', (e) => (window as unknown as { asked: string[] }).asked.push((e as CustomEvent<{ why: string }>).detail.why))
  })
  const el = page.locator('latchkey-passkeys')
  await expect.poll(() => el.locator('li[part="passkey"]').count()).toBe(1)
  env.server.advance(3600_000 + 1000)

  await el.locator('button[part~="remove"]').click()
  await el.locator('button[part~="remove-confirm"]').click()
  await expect.poll(() => errorOf(page, 'latchkey-passkeys')).toBe("Confirm it's you to remove the passkey “Google Password Manager”: sign in again.")
  expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual(['remove the passkey “Google Password Manager”'])
  expect(await stored(page)).toEqual(['Google Password Manager'])
  // The element asks itself: a "Confirm it's you" sign-in, the focus on it, named by why.
  const panel = el.locator('[part~="confirm"]')
  await expect.poll(() => focusedAt(page, 'latchkey-passkeys', '[part~="confirm"]')).toBe(true)
  expect(await panel.getAttribute('aria-describedby')).toBe('error')
  const again = panel.locator('latchkey-signin')
  await expect.poll(() => again.locator('input[part~="identifier"]').isVisible()).toBe(true)
  expect(await violations(page), 'asked to confirm').toEqual([])

  // Every destructive action asks the same way: changing the password too.
  const password = page.locator('latchkey-password')
  await password.locator('button[part~="open"]').click()
  await password.locator('input[name="current-password"]').fill(newPassword)
  await password.locator('input[name="new-password"]').fill('yet another long password')
  await password.locator('button[type="submit"]').click()
  await expect.poll(() => errorOf(page, 'latchkey-password')).toBe("Confirm it's you to change your password: sign in again.")
  expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual(['remove the passkey “Google Password Manager”', 'change your password'])
  await password.locator('[part~="confirm"] button[part~="cancel"]').click()
  await expect.poll(() => password.locator('[part~="confirm"]').count()).toBe(0)

  // The sign-in again takes its two steps: the username, Continue, then the password.
  await again.locator('input[part~="identifier"]').fill('sal')
  await again.locator('button[part~="continue"]').click()
  const form = again.locator('form[part~="credentials-form"]')
  await form.locator('input[name="password"]').fill('secret')
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => el.locator('li[part="passkey"]').count()).toBe(0)
  expect(await el.locator('[part~="confirm"]').count()).toBe(0)
  expect(await errorOf(page, 'latchkey-passkeys')).toBeNull()
  expect(await el.locator('[role="status"]').textContent()).toBe('Passkey removed.')
  expect(await stored(page)).toEqual([])
  await context.close()
})

test('the keyboard alone: Tab reaches every action of the profile, and Enter or Space works them', async () => {
  const other = await env.browser.newContext()
  const elsewhere = await other.newPage()
  await elsewhere.goto(env.server.url + '/profile')
  await elsewhere.waitForFunction(() => window.ready === true)
  const { context, page } = await open()
  await fullUser(page, env.server, 'kai', () => signIn(elsewhere, 'kai'))
  await reload(page)
  await loaded(page)
  await expect.poll(() => section(page, 'sessions').locator('li[part="session"]').count()).toBe(2)

  // Every button, link and field shown, through the shadow roots, is reached by Tab, in order.
  const targets = await profile(page).evaluate((host) => {
    let n = 0
    const walk = (root: ShadowRoot) => root.querySelectorAll('*').forEach((el) => {
      if (el.matches('button, a[href], input:not([hidden])') && (el as HTMLElement).getClientRects().length) (el as HTMLElement).dataset.kb = String(n++)
      if (el.shadowRoot) walk(el.shadowRoot)
    })
    walk(host.shadowRoot!)
    return n
  })
  expect(targets).toBeGreaterThan(10)
  const reached: number[] = []
  for (let i = 0; i < targets + 5 && reached.length < targets; i++) {
    await page.keyboard.press('Tab')
    const at = await page.evaluate(() => {
      let el = document.activeElement
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
      return (el as HTMLElement | null)?.dataset.kb
    })
    if (at !== undefined) reached.push(Number(at))
  }
  expect(reached).toEqual([...Array(targets).keys()])

  // Rename a passkey: Enter opens the field (focused), Enter saves, the focus comes back.
  const passkeys = ['latchkey-profile', 'latchkey-passkeys']
  await page.locator('body').focus()
  await tabUntil(page, [...passkeys, 'button[part~="rename"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, ...passkeys, 'form[part~="rename-form"] input')).toBe(true)
  await page.keyboard.type('Phone')
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, ...passkeys, 'button[part~="rename"]')).toBe(true)
  expect(await stored(page)).toEqual(['Phone'])

  // End the other session with Space.
  await tabUntil(page, ['latchkey-profile', 'latchkey-sessions', 'button[part~="end-others"]'])
  await page.keyboard.press(' ')
  await expect.poll(() => section(page, 'sessions').locator('li[part="session"]').count()).toBe(1)

  // Change the password: Space opens the form, its first field focused; Enter saves.
  const password = ['latchkey-profile', 'latchkey-password']
  await page.locator('body').focus()
  await tabUntil(page, [...password, 'button[part~="open"]'])
  await page.keyboard.press(' ')
  await expect.poll(() => focusedAt(page, ...password, 'input[name="current-password"]')).toBe(true)
  await page.keyboard.type(newPassword)
  await page.keyboard.press('Tab')
  await page.keyboard.type('a new long enough password')
  await page.keyboard.press('Enter')
  await expect.poll(() => section(page, 'password').locator('[role="status"]').textContent()).toBe('Your password is saved. Your other devices were signed out.')
  await expect.poll(() => focusedAt(page, ...password, 'button[part~="open"]')).toBe(true)

  // Remove the passkey: Enter asks, the focus on the answer; Space removes.
  await tabUntil(page, [...passkeys, 'button[part~="remove"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, ...passkeys, 'button[part~="remove-confirm"]')).toBe(true)
  await page.keyboard.press(' ')
  await expect.poll(() => stored(page)).toEqual([])

  // Set up an authenticator app: Enter opens it, the focus in its code field.
  await page.locator('body').focus()
  await tabUntil(page, ['latchkey-profile', 'latchkey-mfa', 'button[part~="enroll"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, 'latchkey-profile', 'latchkey-mfa', 'form[part~="enroll-form"] input')).toBe(true)
  await Promise.all([context.close(), other.close()])
})

test('axe: no violation on the profile, light and dark, with its forms open, and in Arabic (right to left)', async () => {
  const { context, page } = await open()
  await fullUser(page, env.server, 'ana')
  await reload(page)
  await loaded(page)
  const clean = async (what: string) => expect(await violations(page), what).toEqual([])
  await clean('the profile')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean('the profile, dark')
  // The page follows the user's scheme (it declares light dark), and so do the sections.
  expect(await section(page, 'passkeys').locator('button[part~="add"]').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(138, 180, 255)')

  await section(page, 'password').locator('button[part~="open"]').click()
  await section(page, 'passkeys').locator('button[part~="rename"]').click()
  await section(page, 'mfa').locator('button[part~="enroll"]').click()
  await expect.poll(() => section(page, 'mfa').locator('form[part~="enroll-form"]').isVisible()).toBe(true)
  await clean('forms open, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await clean('forms open')

  const fetched: string[] = []
  page.on('request', (r) => /\/locales\//.test(r.url()) && fetched.push(new URL(r.url()).pathname))
  await page.evaluate(() => (document.documentElement.lang = 'ar'))
  await expect.poll(() => headings(page).first().textContent()).toBe('الملف الشخصي')
  // The settings elements' words are a file of their own, fetched once a settings element speaks the language.
  expect(fetched.sort()).toEqual(['/locales/ar-profile.js', '/locales/ar.js'])
  expect(await section(page, 'passkeys').evaluate((s) => getComputedStyle(s).direction)).toBe('rtl')
  await expect.poll(() => section(page, 'sessions').locator('[part~="end"]').first().textContent()).toMatch(/[\u0600-\u06ff]/)
  await clean('Arabic')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean('Arabic, dark')
  await context.close()
})

test('280 px wide with a 64-character address: nothing overflows, forms open too', async () => {
  const username = 'a-long-address-for-a-narrow-screen-'.padEnd(52, 'x')
  expect(`${username}@example.com`).toHaveLength(64)
  const { context, page } = await open('', { viewport: { width: 280, height: 800 } })
  await fullUser(page, env.server, username)
  await reload(page)
  await loaded(page)
  const overflow = () => overflowing(page)
  expect(await section(page, 'identity').locator('[part~="email"]').textContent()).toHaveLength(64)
  expect(await overflow()).toEqual([])
  await section(page, 'password').locator('button[part~="open"]').click()
  await section(page, 'passkeys').locator('button[part~="rename"]').click()
  await section(page, 'mfa').locator('button[part~="enroll"]').click()
  await expect.poll(() => section(page, 'mfa').locator('form[part~="enroll-form"]').isVisible()).toBe(true)
  expect(await overflow()).toEqual([])
  await context.close()
})
