/**
 * `<latchkey-identity>` in `<latchkey-profile>`, editable (the identity plugin), in Chromium
 * against the test app: the name and the image saved from the keyboard alone and shown at once;
 * the email address changed through the link the test app's outbox caught, its page, and its
 * button; a stale session asks to confirm it's you and sends the link once confirmed; a refused
 * field says why under it; axe finds no violation with the email form open, light, dark and in
 * Arabic; nothing overflows 280 px with a 64-character address.
 */
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { violations } from './axe.js'
import { browserAndServer, focusedAt, overflowing, tabUntil } from './helpers.js'
import { profilePage, signIn } from './profile-page.js'

// Every section's feature on (a section the server lacks asks once, and that 404 is in the console).
const env = browserAndServer({ mfa: true, password: true, maxAge: 7 * 86400, updateAge: 86400, pages: { '/profile': profilePage } })

async function open(viewport?: { width: number; height: number }, bypassCSP = false) {
  const context = await env.browser.newContext({ ...(viewport && { viewport }), bypassCSP })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(env.server.url + '/profile')
  await page.waitForFunction(() => window.ready === true)
  return { context, page, problems }
}

/** Signs `username` in and opens the profile anew, its identity section editable. */
async function signedIn(page: Page, username: string) {
  await signIn(page, username)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await identity(page).locator('input[name="name"]').waitFor()
}

const identity = (page: Page) => page.locator('latchkey-profile').locator('latchkey-identity')
const inIdentity = ['latchkey-profile', 'latchkey-identity']
/** The element's own error line (the sign-in a confirmation shows inside it has one too). */
const errorText = (page: Page) =>
  identity(page).evaluate((el) => {
    const error = el.shadowRoot!.getElementById('error')!
    return error.hidden ? null : error.textContent
  })
const linkTo = (to: string) => {
  const text = env.server.mailOutbox.filter((m) => m.to === to).at(-1)?.text
  return text?.match(/http:\/\/localhost:\d+\/auth\/identity\/email\?\S+/)?.[0]
}

test('the name and the image, from the keyboard alone: saved, shown at once, kept after a reload', async () => {
  const { context, page, problems } = await open()
  await signedIn(page, 'ida')
  expect(await identity(page).locator('[part~="value"][part~="name"]').textContent()).toBe('ida')
  await page.locator('body').focus()
  await tabUntil(page, [...inIdentity, 'input[name="name"]'])
  await page.keyboard.press('Control+a')
  await page.keyboard.type('Ida Lovelace')
  await page.keyboard.press('Enter')
  await expect.poll(() => identity(page).locator('[part~="value"][part~="name"]').textContent()).toBe('Ida Lovelace')
  expect(await identity(page).locator('[part="message"]').textContent()).toBe('Your name is saved.')
  expect(await page.evaluate(() => window.client.session?.user?.name)).toBe('Ida Lovelace')
  // The focus stays on what was used; Tab goes on to the image.
  await tabUntil(page, [...inIdentity, 'input[name="image"]'])
  const image = `${env.server.url}/acme.svg`
  await page.keyboard.type(image)
  await page.keyboard.press('Enter')
  await expect.poll(() => identity(page).locator('img[part~="avatar"]').getAttribute('src')).toBe(image)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => identity(page).locator('[part~="value"][part~="name"]').textContent()).toBe('Ida Lovelace')
  expect(await identity(page).locator('input[name="name"]').inputValue()).toBe('Ida Lovelace')
  expect(await identity(page).locator('input[name="image"]').inputValue()).toBe(image)
  // A refused image says why under its field, which names it; nothing changes.
  await identity(page).locator('input[name="image"]').fill('javascript:alert(1)')
  await identity(page).locator('form[part~="image-form"] button[type="submit"]').click()
  await expect.poll(() => errorText(page)).toBe('Use an address that starts with https://, of at most 2,048 characters.')
  expect(await identity(page).locator('input[name="image"]').getAttribute('aria-describedby')).toBe('error')
  expect(await identity(page).evaluate((el) => !!el.shadowRoot!.querySelector('form[part~="image-form"] #error'))).toBe(true)
  expect((await env.server.adapter.getUser!('user-ida'))!.image).toBe(image)
  // Emptied and saved, the image is cleared: the initials stand in.
  await identity(page).locator('input[name="image"]').fill('')
  await identity(page).locator('form[part~="image-form"] button[type="submit"]').click()
  await expect.poll(() => identity(page).locator('[part~="initials"]').textContent()).toBe('IL')
  expect(await errorText(page)).toBeNull()
  expect((await env.server.adapter.getUser!('user-ida'))!.image).toBeNull()
  expect(problems).toEqual([])
  await context.close()
})

test('the email address: Change email, the new address, Check your inbox; the link from the email changes it', async () => {
  // The link's page allows no script; axe is one.
  const { context, page, problems } = await open(undefined, true)
  await signedIn(page, 'eve')
  await page.locator('body').focus()
  await tabUntil(page, [...inIdentity, 'button[part~="change-email"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, ...inIdentity, 'input[name="email"]')).toBe(true)
  // Escape closes it, the focus back on the button; Enter opens it again.
  await page.keyboard.press('Escape')
  await expect.poll(() => focusedAt(page, ...inIdentity, 'button[part~="change-email"]')).toBe(true)
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, ...inIdentity, 'input[name="email"]')).toBe(true)
  await page.keyboard.type('eve.new@example.org')
  await page.keyboard.press('Enter')
  await expect.poll(() => identity(page).locator('[part~="sent"]').textContent()).toMatch(/^Check your inbox: we sent a link to eve\.new@example\.org\./)
  await expect.poll(() => focusedAt(page, ...inIdentity, 'button[part~="change-email"]')).toBe(true)
  expect(await identity(page).locator('form[part~="email-form"]').count()).toBe(0)
  expect((await env.server.adapter.getUser!('user-eve'))!.email).toBe('eve@example.com')
  // The link and the notice went (after the answer).
  await expect.poll(() => linkTo('eve.new@example.org')).toBeTruthy()
  expect(env.server.mailOutbox.some((m) => m.to === 'eve@example.com' && /A new email address was asked/.test(m.subject))).toBe(true)

  // The link, in this browser: its page, and its button.
  const link = await context.newPage()
  await link.goto(linkTo('eve.new@example.org')!)
  expect(await link.locator('main p').first().textContent()).toBe('Use eve.new@example.org as the email address of the account eve@example.com?')
  await link.getByRole('button', { name: 'Use this address' }).click()
  await expect.poll(() => link.locator('[role="status"]').textContent()).toBe('Your email address is now eve.new@example.org.')
  expect(await violations(link), 'the link page, done').toEqual([])
  const user = (await env.server.adapter.getUser!('user-eve'))!
  expect(user.email).toBe('eve.new@example.org')
  expect(user.emailVerified).toBeInstanceOf(Date)
  // Back on the profile the session has it (the link page's answer rewrote nothing the tab holds: it reads again).
  await link.close()
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => identity(page).locator('[part~="value"][part~="email"]').textContent()).toBe('eve.new@example.org')
  expect(await identity(page).locator('[part~="sent"]').textContent()).toBe('')
  expect(problems).toEqual([])
  await context.close()
})

test('a stale session: the change asks to confirm it is you, says why, and sends the link once confirmed', async () => {
  const { context, page } = await open()
  await signedIn(page, 'sam')
  env.server.advance(3600_000 + 1000)
  await identity(page).locator('button[part~="change-email"]').click()
  await identity(page).locator('input[name="email"]').fill('sam.new@example.org')
  await identity(page).locator('form[part~="email-form"] button[type="submit"]').click()
  await expect.poll(() => errorText(page)).toBe("Confirm it's you to change your email address: sign in again.")
  await expect.poll(() => focusedAt(page, ...inIdentity, '[part~="confirm"]')).toBe(true)
  expect(linkTo('sam.new@example.org')).toBeUndefined()
  const again = identity(page).locator('[part~="confirm"] latchkey-signin')
  await again.locator('input[part~="identifier"]').fill('sam')
  await again.locator('button[part~="continue"]').click()
  await again.locator('form[part~="credentials-form"] input[name="password"]').fill('secret')
  await again.locator('form[part~="credentials-form"] button[type="submit"]').click()
  await expect.poll(() => identity(page).locator('[part~="sent"]').textContent()).toMatch(/sam\.new@example\.org/)
  await expect.poll(() => linkTo('sam.new@example.org')).toBeTruthy()
  expect(await identity(page).locator('[part~="confirm"]').count()).toBe(0)
  await context.close()
})

test('axe: no violation in the editable identity section, its email form open, refused, light and dark, and in Arabic', async () => {
  const { context, page } = await open()
  await signedIn(page, 'axel')
  const clean = async (what: string) => expect(await violations(page), what).toEqual([])
  await clean('the section')
  await identity(page).locator('button[part~="change-email"]').click()
  await identity(page).locator('input[name="email"]').fill('not an address')
  await identity(page).locator('form[part~="email-form"] button[type="submit"]').click()
  await expect.poll(() => errorText(page)).toBe('Enter an email address like name@example.com.')
  expect(await identity(page).locator('input[name="email"]').getAttribute('aria-describedby')).toBe('error')
  await clean('the email form open, refused')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean('the email form open, refused, dark')
  await page.evaluate(() => (document.documentElement.lang = 'ar'))
  await expect.poll(() => identity(page).locator('button[part~="send"]').textContent()).toBe('إرسال رابط التأكيد')
  expect(await identity(page).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('div')!).direction)).toBe('rtl')
  await clean('Arabic, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await clean('Arabic')
  await context.close()
})

test('280 px wide with a 64-character address: nothing overflows, the email form and its message too', async () => {
  const username = 'a-long-address-for-a-narrow-screen-'.padEnd(52, 'y')
  expect(`${username}@example.com`).toHaveLength(64)
  const { context, page } = await open({ width: 280, height: 900 })
  await signedIn(page, username)
  const overflow = () => overflowing(page)
  expect(await identity(page).locator('[part~="value"][part~="email"]').textContent()).toHaveLength(64)
  expect(await overflow()).toEqual([])
  await identity(page).locator('button[part~="change-email"]').click()
  const longer = 'b-long-address-for-a-narrow-screen-'.padEnd(52, 'z') + '@example.com'
  await identity(page).locator('input[name="email"]').fill(longer)
  expect(await overflow()).toEqual([])
  await identity(page).locator('form[part~="email-form"] button[type="submit"]').click()
  await expect.poll(() => identity(page).locator('[part~="sent"]').textContent()).toContain(longer)
  expect(await overflow()).toEqual([])
  await context.close()
})
