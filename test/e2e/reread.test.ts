/**
 * A list element reads its list anew for each sign-in; the same user signing in again (a recent
 * sign-in confirmed) keeps what they opened meanwhile, and what they typed in it. In Chromium: the
 * re-read's answer is held until a form is open, then changed, so the test sees when it landed.
 * A form on another organization closes.
 */
import type { Page, Route } from 'playwright-core'
import { expect, test } from 'vitest'
import { browserAndServer, openPage } from './helpers.js'

/** Whether the focus is in (or on) what `selector` finds in `host`'s shadow root. */
const focusedIn = (page: Page, host: string, selector: string) =>
  page.evaluate(([h, s]) => {
    const root = document.querySelector(h!)!.shadowRoot!
    return !!root.activeElement && !!root.querySelector(s!)?.contains(root.activeElement)
  }, [host, selector])

const settingsPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Settings</title>
<main></main>
<script type="module">
import { createAuthClient, organizations } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [organizations()] })
for (const name of new URLSearchParams(location.search).getAll('show')) document.querySelector('main').append(document.createElement(name))
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({ organizations: true, pages: { '/settings': settingsPage } })

const signIn = (page: Page, username: string) =>
  page.evaluate(async (username) => {
    const result = await window.client.signIn('credentials', { username, password: 'secret', redirect: false })
    if (!result.ok) throw new Error(`sign-in refused: ${result.error}`)
  }, username)

/** Holds the next GET of `pattern` until `release()`; `arrived` resolves once it is held. `change`: what its answer becomes. */
async function holdNext(page: Page, pattern: string, change?: (body: any) => unknown) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let arrive!: () => void
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  let armed = true
  await page.route(pattern, async (route: Route) => {
    if (route.request().method() !== 'GET' || !armed) return route.continue()
    armed = false
    arrive()
    await gate
    if (!change) return route.continue()
    const response = await route.fetch()
    await route.fulfill({ response, json: change(await response.json()) })
  })
  return { arrived, release }
}

/**
 * The same user signs in again, the element's re-read of its list held: `open` opens a form
 * meanwhile; then the answer goes (changed by `change`, so the test sees it land).
 */
async function signInAgainWhile(page: Page, username: string, reread: string, change: (body: any) => unknown, open: () => Promise<void>) {
  const list = await holdNext(page, reread, change)
  // The test server's clock stands still: a minute on, the new sign-in is another instant.
  env.server.advance(60_000)
  await signIn(page, username)
  await list.arrived
  await open()
  list.release()
}

test('<latchkey-organization>: the details form and a removal asked stay open, with what is typed, through a re-read for the same user', async () => {
  const context = await env.browser.newContext()
  const page = await openPage(context, `${env.server.url}/settings?show=latchkey-organization`, { controlled: false })
  await signIn(page, 'rhea')
  // Two of theirs; the element shows the one it names (a new sign-in starts with none active).
  const [id, other] = await page.evaluate(async () => {
    const other = await window.client.organizations.create({ name: 'Other Co' })
    const made = await window.client.organizations.create({ name: 'Race Co' })
    document.querySelector('latchkey-organization')!.setAttribute('organization-id', made.id)
    return [made.id, other.id]
  })
  const org = page.locator('latchkey-organization')
  await expect.poll(() => org.locator('[part="summary"] [part~="name"]').textContent()).toBe('Race Co')

  await signInAgainWhile(page, 'rhea', `**/auth/organizations/${id}`, (d) => ({ ...d, name: 'Race Co (read again)' }), async () => {
    await org.locator('button[part~="leave"]').click()
    await expect.poll(() => focusedIn(page, 'latchkey-organization', '[part~="leave-ask"]')).toBe(true)
    await org.locator('button[part~="edit"]').click()
    await org.locator('input[name="name"]').fill('Race Company')
  })
  // The re-read's answer is in (the name it carried shows), and what was open still is.
  await expect.poll(() => org.locator('[part="summary"] [part~="name"]').textContent()).toBe('Race Co (read again)')
  expect(await org.locator('form[part~="details-form"]').count()).toBe(1)
  expect(await org.locator('input[name="name"]').inputValue()).toBe('Race Company')
  expect(await focusedIn(page, 'latchkey-organization', 'form[part~="details-form"]')).toBe(true)
  expect(await org.locator('[part~="leave-ask"]').count()).toBe(1)

  // Another organization shown: what was open on this one closes.
  await page.evaluate((other) => document.querySelector('latchkey-organization')!.setAttribute('organization-id', other), other)
  await expect.poll(() => org.locator('[part="summary"] [part~="name"]').textContent()).toBe('Other Co')
  expect(await org.locator('form[part~="details-form"], [part~="leave-ask"]').count()).toBe(0)
  await context.close()
})
