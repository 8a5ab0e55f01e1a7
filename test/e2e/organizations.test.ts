/**
 * Organizations in the browser, in Chromium against the test app with the organizations plugin
 * and latchkey's worker: `<latchkey-organization-switcher>` creates and switches, and a second
 * tab hears each switch at once (the worker's broadcast); `<latchkey-organization>` invites,
 * the invited address accepts from the emailed link in another browser, a role changes, a member
 * removed loses the organization at their tab's next read, a member leaves, the last owner
 * cannot, and deleting asks to confirm it's you first; the switcher from the keyboard alone;
 * axe finds nothing, light, dark and in Arabic; nothing overflows 280 px.
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { violations } from './axe.js'
import { browserAndServer, focusedAt, markDue, openPage, overflowing, signInAs, tabUntil } from './helpers.js'

const orgsPage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Your team</title>
<style>html{background:Canvas;color:CanvasText}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem}main{max-width:44rem;margin:auto}h1{font-size:1.5rem;margin:0 0 1rem}</style>
<main><h1>Your team</h1></main>
<script type="module">
import { createAuthClient, identity, organizations, ssoConnections, scimTokens } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
const params = new URLSearchParams(location.search)
// ?enterprise: the client has the enterprise plugins too, which this server (no sso, no scim) lacks.
const enterprise = params.has('enterprise') ? [ssoConnections(), scimTokens()] : []
window.client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js', plugins: [organizations(), identity(), ...enterprise] })
window.changes = []
client.onSessionChange((s) => window.changes.push({ at: Date.now(), email: s?.user?.email ?? null, stale: false, organization: s?.organization?.slug ?? null }))
const shown = params.getAll('show').length ? params.getAll('show') : ['latchkey-organization-switcher', 'latchkey-organization']
for (const name of shown) document.querySelector('main').append(document.createElement(name))
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({ organizations: true, maxAge: 7 * 86400, updateAge: 86400, pages: { '/team': orgsPage } })

interface Opened {
  context: BrowserContext
  page: Page
  problems: string[]
}

/** A page of the team app in `context` (a new one by default), under the worker. */
async function open(query = '', context?: BrowserContext, viewport?: { width: number; height: number }): Promise<Opened> {
  context ??= await env.browser.newContext({ ...(viewport && { viewport }) })
  const page = await openPage(context, `${env.server.url}/team${query}`)
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  return { context, page, problems }
}

const signIn = signInAs

/** Signs `email` in through the emailed link (a proven address, as accepting an invitation needs). */
async function signInByEmail(page: Page, email: string) {
  const sent = env.server.outbox.length
  await page.evaluate((email) => window.client.signIn('email', { email, redirect: false }), email)
  await expect.poll(() => env.server.outbox.length).toBe(sent + 1)
  await page.goto(env.server.outbox.at(-1)!.url)
  await page.waitForFunction(() => window.ready === true)
  await page.waitForFunction(() => !!window.client.session?.user)
}

const switcher = (page: Page) => page.locator('latchkey-organization-switcher')
const organization = (page: Page) => page.locator('latchkey-organization')
const option = (page: Page, name: string) => switcher(page).locator('button[part~="option"]', { hasText: name })
const current = (page: Page) => switcher(page).locator('button[aria-current="true"] [part~="name"]').textContent()
const activeSlug = (page: Page) => page.evaluate(() => window.client.session?.organization?.slug ?? null)
const errorOf = (page: Page, host: string) =>
  page.locator(host).first().evaluate((el) => {
    const error = el.shadowRoot!.getElementById('error')!
    return error.hidden ? null : error.textContent
  })
const invitationLink = (to: string) => env.server.mailOutbox.filter((m) => m.to === to).at(-1)?.text.match(/http:\/\/localhost:\d+\/auth\/organizations\/invitation\?\S+/)?.[0]

/** Creates `name` through the switcher's form (mouse), and waits for it to be the active one. */
async function createWith(page: Page, name: string) {
  await switcher(page).locator('button[part~="new"]').click()
  await switcher(page).locator('input[name="name"]').fill(name)
  await switcher(page).locator('button[part~="create"]').click()
  await expect.poll(() => current(page)).toBe(name)
}

test('create and switch: the session carries the organization, and a second tab hears each switch at once', async () => {
  const { context, page, problems } = await open()
  await signIn(page, 'ann')
  const other = await openPage(context, `${env.server.url}/team`)
  await other.waitForFunction(() => window.client.session?.user?.email === 'ann@example.com')
  await expect.poll(() => current(other)).toBe('Personal account')

  await createWith(page, 'Acme')
  // The switch shows before the creation's answer is in (the session changes first): the status line follows it.
  await expect.poll(() => switcher(page).locator('[part="message"]').textContent()).toBe('You now work in \u2068Acme\u2069.')
  expect(await page.evaluate(() => window.client.session?.organization)).toMatchObject({ slug: 'acme', role: 'owner' })
  // The other tab: its session changed (one change heard), its switcher marks Acme.
  await other.waitForFunction(() => (window.changes as Array<{ organization?: string | null }>).some((c) => c.organization === 'acme'), undefined, { timeout: 3000 })
  await expect.poll(() => current(other)).toBe('Acme')
  expect(await option(other, 'Acme').locator('[part~="role"]').textContent()).toBe('Owner')

  await createWith(page, 'Beta Works')
  await other.waitForFunction(() => window.client.session?.organization?.slug === 'beta-works', undefined, { timeout: 3000 })
  // Switched in the other tab: this one hears it.
  await other.bringToFront()
  await option(other, 'Personal account').click()
  await page.waitForFunction(() => window.client.session?.organization === undefined, undefined, { timeout: 3000 })
  await expect.poll(() => current(page)).toBe('Personal account')
  await expect.poll(() => organization(page).locator('[part~="none"]').textContent()).toMatch(/^You work in your personal account\./)
  await option(other, 'Acme').click()
  await page.waitForFunction(() => window.client.session?.organization?.slug === 'acme', undefined, { timeout: 3000 })
  await expect.poll(() => organization(page).locator('[part="summary"] [part~="name"]').textContent()).toBe('Acme')
  // GET /session says the same.
  expect(await page.evaluate(() => fetch('/auth/session').then((r) => r.json()).then((s) => s.organization.slug))).toBe('acme')
  expect(problems).toEqual([])
  await context.close()
})

test("a server without sso: an owner whose client has the enterprise plugins sees no SSO part, and nothing asks the server's sso or scim routes", async () => {
  const count = (match: RegExp) => [...env.server.requests].filter(([key]) => match.test(key)).reduce((n, [, c]) => n + c, 0)
  const enterpriseRoutes = / \/auth\/(sso-connections|scim-tokens)\//
  const before = count(enterpriseRoutes)
  const { context, page, problems } = await open('?enterprise')
  await signIn(page, 'erin')
  await createWith(page, 'No SSO Inc')
  await expect.poll(() => organization(page).locator('[part="summary"] [part~="name"]').textContent()).toBe('No SSO Inc')
  // The server's plugin list is in (the element asked it): organizations, and neither sso nor scim.
  const plugins = await page.evaluate(() => window.client.getPlugins())
  expect(plugins).toContain('organizations')
  expect(plugins).not.toContain('sso')
  await env.server.idle()
  expect(await organization(page).locator('latchkey-sso-setup').count()).toBe(0)
  expect(count(enterpriseRoutes) - before).toBe(0)
  expect(problems).toEqual([])
  await context.close()
})

test('invite, accept with the emailed link, change a role, remove, leave, the last owner stays, delete after confirming it is you', async () => {
  const ann = await open()
  await signIn(ann.page, 'owner-ann')
  await createWith(ann.page, 'Team')
  const org = organization(ann.page)
  await org.locator('input[name="email"]').fill('bob@example.org')
  await org.locator('select[name="role"]').selectOption('member')
  await org.locator('button[part~="invite"]').click()
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('Invitation sent to bob@example.org.')
  await expect.poll(() => org.locator('[part~="invitation"] [part~="email"]').textContent()).toBe('bob@example.org')
  await expect.poll(() => invitationLink('bob@example.org')).toBeTruthy()

  // Bob, in a browser of his own, signed in with the invited address: the link's page, its button.
  const bob = await open()
  await signInByEmail(bob.page, 'bob@example.org')
  await bob.page.goto(invitationLink('bob@example.org')!)
  await bob.page.getByRole('button', { name: 'Join Team' }).click()
  await expect.poll(() => bob.page.locator('[role="status"]').textContent()).toBe('You are now a member of Team.')
  await bob.page.goto(`${env.server.url}/team`)
  await bob.page.waitForFunction(() => window.ready === true)
  await expect.poll(() => activeSlug(bob.page)).toBe('team')
  await expect.poll(() => current(bob.page)).toBe('Team')
  // A member: no invite form, no role to change, no details to edit, no delete.
  await expect.poll(() => organization(bob.page).locator('[part="summary"] [part~="detail"]').textContent()).toBe('Your role: Member')
  expect(await organization(bob.page).locator('form[part~="invite-form"], select, button[part~="edit"], button[part~="delete"]').count()).toBe(0)

  // Ann's page reads anew: Bob is a member; the invitation is spent.
  await ann.page.reload()
  await ann.page.waitForFunction(() => window.ready === true)
  const bobRow = org.locator('[part~="member"]', { hasText: 'bob@example.org' })
  await bobRow.locator('select').selectOption('admin')
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('\u2068bob@example.org\u2069 is now Admin.')
  expect(await org.locator('[part~="invitation"]').count()).toBe(0)
  // Bob's tab sees his new role at its next read.
  await bob.page.evaluate(markDue)
  await bob.page.evaluate(() => window.client.getSession())
  await expect.poll(() => bob.page.evaluate(() => window.client.session?.organization?.role)).toBe('admin')
  await expect.poll(() => organization(bob.page).locator('[part="summary"] [part~="detail"]').textContent()).toBe('Your role: Admin')

  // Removed: Bob's tab loses the organization at its next read, and its elements say so.
  // Asked again in his row: Escape keeps him, the focus back on Remove; then confirmed.
  await bobRow.locator('button[part~="remove-member"]').click()
  await expect.poll(() => focusedAt(ann.page, 'latchkey-organization', '[part~="confirm-remove"]')).toBe(true)
  expect(await bobRow.locator('[part~="remove-ask"] [part="message"]').textContent()).toBe('Remove \u2068bob@example.org\u2069 from \u2068Team\u2069? They will need a new invitation to come back.')
  await ann.page.keyboard.press('Escape')
  await expect.poll(() => focusedAt(ann.page, 'latchkey-organization', '[part~="remove-member"]')).toBe(true)
  expect(await bobRow.count()).toBe(1)
  await bobRow.locator('button[part~="remove-member"]').click()
  await bobRow.locator('button[part~="confirm-remove"]').click()
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('\u2068bob@example.org\u2069 is no longer a member.')
  await bob.page.evaluate(markDue)
  await bob.page.evaluate(() => window.client.getSession())
  await expect.poll(() => activeSlug(bob.page)).toBe(null)
  await expect.poll(() => current(bob.page)).toBe('Personal account')
  await expect.poll(() => switcher(bob.page).locator('button[part~="option"]').count()).toBe(1)
  await expect.poll(() => organization(bob.page).locator('[part~="none"]').count()).toBe(1)

  // Invited again, Bob accepts through the client (the link as given), then leaves from the element.
  const toBob = () => env.server.mailOutbox.filter((m) => m.to === 'bob@example.org').length
  const sentBefore = toBob()
  await org.locator('input[name="email"]').fill('bob@example.org')
  await org.locator('button[part~="invite"]').click()
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('Invitation sent to bob@example.org.')
  await expect.poll(toBob).toBe(sentBefore + 1)
  const joined = await bob.page.evaluate((link) => window.client.organizations.accept(link), invitationLink('bob@example.org')!)
  expect(joined).toMatchObject({ name: 'Team', role: 'member' })
  await expect.poll(() => current(bob.page)).toBe('Team')
  const bobOrg = organization(bob.page)
  await bobOrg.locator('button[part~="leave"]').click()
  await expect.poll(() => focusedAt(bob.page, 'latchkey-organization', '[part~="confirm-action"]')).toBe(true)
  await bobOrg.locator('[part~="confirm-action"]').click()
  await expect.poll(() => bobOrg.locator('[part="message"]').textContent()).toBe('You left \u2068Team\u2069.')
  await expect.poll(() => focusedAt(bob.page, 'latchkey-organization', '[part="message"]')).toBe(true)
  await expect.poll(() => activeSlug(bob.page)).toBe(null)
  await expect.poll(() => switcher(bob.page).locator('button[part~="option"]').count()).toBe(1)

  // The last owner cannot leave: said in words.
  await ann.page.reload()
  await ann.page.waitForFunction(() => window.ready === true)
  await org.locator('button[part~="leave"]').click()
  await org.locator('[part~="confirm-action"]').click()
  await expect.poll(() => errorOf(ann.page, 'latchkey-organization')).toBe('The organization needs an owner: make another member owner first.')

  // Deleting, an hour and more after the sign-in: confirm it's you, then it goes.
  env.server.advance(3600_000 + 1000)
  await org.locator('button[part~="cancel"]').click()
  await org.locator('button[part~="delete"]').click()
  await org.locator('[part~="confirm-action"]').click()
  await expect.poll(() => errorOf(ann.page, 'latchkey-organization')).toBe("Confirm it's you to delete \u2068Team\u2069: sign in again.")
  const again = org.locator('[part~="confirm"] latchkey-signin')
  await again.locator('input[part~="identifier"]').fill('owner-ann')
  await again.locator('button[part~="continue"]').click()
  await again.locator('form[part~="credentials-form"] input[name="password"]').fill('secret')
  await again.locator('form[part~="credentials-form"] button[type="submit"]').click()
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('\u2068Team\u2069 was deleted.')
  await expect.poll(() => activeSlug(ann.page)).toBe(null)
  await expect.poll(() => switcher(ann.page).locator('button[part~="option"]').count()).toBe(1)
  expect(await ann.page.evaluate(() => window.client.organizations.list())).toEqual({ organizations: [], active: null })
  // The two refusals asked for (the last owner leaving, a delete not fresh), and nothing else.
  expect(ann.problems).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)', 'Failed to load resource: the server responded with a status of 403 (Forbidden)'])
  expect(bob.problems).toEqual([])
  await ann.context.close()
  await bob.context.close()
})

test('the switcher from the keyboard alone: New organization, its name, Enter; Escape closes; Enter switches', async () => {
  const { context, page, problems } = await open('?show=latchkey-organization-switcher')
  await signIn(page, 'kim')
  await expect.poll(() => current(page)).toBe('Personal account')
  await page.locator('body').focus()
  await tabUntil(page, ['latchkey-organization-switcher', 'button[part~="new"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, 'latchkey-organization-switcher', 'input[name="name"]')).toBe(true)
  await page.keyboard.press('Escape')
  await expect.poll(() => focusedAt(page, 'latchkey-organization-switcher', 'button[part~="new"]')).toBe(true)
  await page.keyboard.press('Enter')
  // Refused here, said under the field, which names it.
  await page.keyboard.press('Enter')
  await expect.poll(() => errorOf(page, 'latchkey-organization-switcher')).toBe('Use 1 to 100 characters, without line breaks.')
  expect(await switcher(page).locator('input[name="name"]').getAttribute('aria-describedby')).toBe('error')
  await page.keyboard.type('Keys Ltd')
  await page.keyboard.press('Enter')
  await expect.poll(() => current(page)).toBe('Keys Ltd')
  await expect.poll(() => focusedAt(page, 'latchkey-organization-switcher', 'button[aria-current="true"]')).toBe(true)
  await tabUntil(page, ['latchkey-organization-switcher', 'button[data-organization=""]'], { key: 'Shift+Tab' })
  await page.keyboard.press('Enter')
  await expect.poll(() => current(page)).toBe('Personal account')
  // The session (and so the list) changes before the switch's request returns the focus.
  await expect.poll(() => focusedAt(page, 'latchkey-organization-switcher', 'button[data-organization=""]')).toBe(true)
  expect(await activeSlug(page)).toBe(null)
  expect(problems).toEqual([])
  await context.close()
})

test('Edit details from the keyboard: a refused field says so under itself, a slug in use too; saved, the switcher shows the new name', async () => {
  const { context, page, problems } = await open()
  await context.route('https://example.org/logo.png', (route) => route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>' }))
  await signIn(page, 'edna')
  await createWith(page, 'Taken Slug')
  await createWith(page, 'Old Name')
  const org = organization(page)
  const described = (name: string) => org.locator(`input[name="${name}"]`).getAttribute('aria-describedby')
  await page.locator('body').focus()
  await tabUntil(page, ['latchkey-organization', 'button[part~="edit"]'])
  await page.keyboard.press('Enter')
  await expect.poll(() => focusedAt(page, 'latchkey-organization', 'input[name="name"]')).toBe(true)
  expect(await org.locator('input[name="slug"]').inputValue()).toBe('old-name')
  // A slug the server would refuse: said under that field, which alone names it; nothing sent.
  await org.locator('input[name="slug"]').fill('Not A Slug')
  await page.keyboard.press('Enter')
  await expect.poll(() => errorOf(page, 'latchkey-organization')).toBe('Use lowercase letters, digits and hyphens, not at either end, at most 48.')
  expect(await described('slug')).toBe('error')
  expect(await described('name')).toBe(null)
  expect(await org.locator('input[name="slug"]').evaluate((i) => i.closest('label')!.nextElementSibling?.id)).toBe('error')
  // One in use: the server's refusal, under the slug too.
  await org.locator('input[name="slug"]').fill('taken-slug')
  await org.locator('input[name="name"]').fill('New Name')
  await org.locator('input[name="logo"]').fill('javascript:alert(1)')
  await org.locator('button[part~="save"]').click()
  await expect.poll(() => errorOf(page, 'latchkey-organization')).toBe('Use an address that starts with https://, of at most 2,048 characters.')
  expect(await described('logo')).toBe('error')
  await org.locator('input[name="logo"]').fill('https://example.org/logo.png')
  await org.locator('button[part~="save"]').click()
  await expect.poll(() => errorOf(page, 'latchkey-organization')).toBe('Another organization has this name as its address; choose another.')
  expect(await described('slug')).toBe('error')
  await org.locator('input[name="slug"]').fill('new-name')
  await org.locator('input[name="slug"]').press('Enter')
  await expect.poll(() => org.locator('[part="message"]').textContent()).toBe('The details of \u2068New Name\u2069 are saved.')
  expect(await org.locator('form[part~="details-form"]').count()).toBe(0)
  await expect.poll(() => focusedAt(page, 'latchkey-organization', 'button[part~="edit"]')).toBe(true)
  await expect.poll(() => current(page)).toBe('New Name')
  await expect.poll(() => activeSlug(page)).toBe('new-name')
  expect(await option(page, 'New Name').locator('img[part~="logo"]').getAttribute('src')).toBe('https://example.org/logo.png')
  // Escape closes the form and keeps what the server has.
  await page.keyboard.press('Enter')
  await page.keyboard.type(' again')
  await page.keyboard.press('Escape')
  await expect.poll(() => focusedAt(page, 'latchkey-organization', 'button[part~="edit"]')).toBe(true)
  expect(await org.locator('[part="summary"] [part~="name"]').textContent()).toBe('New Name')
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)'])
  await context.close()
})

/** A user with an organization, a second member and a pending invitation, the details and create forms open. */
async function busyTeam(page: Page, username: string, name: string, invited: string) {
  await signIn(page, username)
  await createWith(page, name)
  await page.evaluate(async (invited) => {
    const id = window.client.session!.organization!.id
    await window.client.organizations.invite(id, { email: invited, role: 'admin' })
  }, invited)
  await page.reload()
  await page.waitForFunction(() => window.ready === true)
  await organization(page).locator('[part~="invitation"]').waitFor()
  await organization(page).locator('button[part~="edit"]').click()
  await switcher(page).locator('button[part~="new"]').click()
}

test('axe: no violation with members, an invitation and the form open, light, dark, and in Arabic (right to left)', async () => {
  const { context, page } = await open()
  await busyTeam(page, 'axel', 'Axe Team', 'invited@example.org')
  const clean = async (what: string) => expect(await violations(page), what).toEqual([])
  await clean('light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await clean('dark')
  await page.evaluate(() => (document.documentElement.lang = 'ar'))
  await expect.poll(() => organization(page).locator('button[part~="invite"]').textContent()).toBe('إرسال الدعوة')
  await expect.poll(() => current(page)).toBe('Axe Team')
  expect(await switcher(page).locator('button[part~="new"]').isHidden()).toBe(true)
  expect(await organization(page).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('div')!).direction)).toBe('rtl')
  await clean('Arabic, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await clean('Arabic')
  // The profile's section: the switcher and the organization, under its heading.
  await page.goto(`${env.server.url}/team?show=latchkey-profile`)
  await page.waitForFunction(() => window.ready === true)
  await expect.poll(() => page.locator('latchkey-profile [part~="organization"] [part~="heading"]').textContent()).toBe('Organization')
  await expect.poll(() => page.locator('latchkey-profile latchkey-organization [part="summary"] [part~="name"]').textContent()).toBe('Axe Team')
  await clean('the profile')
  await context.close()
})

test('280 px wide with a long name and address: nothing overflows', async () => {
  const { context, page } = await open('', undefined, { width: 280, height: 900 })
  const long = 'An organization with a rather long name indeed'
  await busyTeam(page, 'a-long-username-for-a-narrow-screen', long, 'a-long-address-for-a-narrow-screen-zzzzzzzzz@example.org')
  await switcher(page).locator('input[name="name"]').fill('x'.repeat(100))
  expect(await overflowing(page)).toEqual([])
  await context.close()
})
