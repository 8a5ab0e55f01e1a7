/**
 * What few pages need loads only where it is needed (the ESM build, in Chromium): the password
 * forms once the server has a Password() provider, `<latchkey-mfa>` once the document has one
 * (defined then, upgrading the elements already there), or at once with `{ lazy: false }`. A
 * sign-in page fetches none of the account settings elements (`<latchkey-profile>` and its sections).
 */
import type { BrowserContext, Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { browserAndServer, continueAs, openPage } from './helpers.js'

const appPage = (options: string, body = '<latchkey-signin></latchkey-signin>') => `<!doctype html><html lang="en"><meta charset="utf-8"><title>lazy parts</title>
${body}
<script type="module">
import { createAuthClient, mfa, password } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [mfa(), password()] })
defineElements(window.client, ${options})
window.ready = true
</script></html>`

const pages = { '/signin': appPage('{}'), '/eager': appPage('{ lazy: false }'), '/settings': appPage('{}', '<latchkey-signin></latchkey-signin><latchkey-mfa></latchkey-mfa>') }
const plain = browserAndServer({ pages })
const withPasswords = browserAndServer({ pages, password: true })

/** Opens `path` on `env`'s server, keeping the lazy parts' files the page fetched. */
async function open(context: BrowserContext, url: string): Promise<{ page: Page; fetched: string[] }> {
  const fetched: string[] = []
  context.on('request', (r) => {
    const part = /\/chunks\/(password-forms|(?:mfa|sessions|accounts|profile|passkeys|password|identity)-element)-/.exec(r.url())?.[1]
    if (part) fetched.push(part)
  })
  const page = await openPage(context, url, { controlled: false })
  await expect.poll(() => page.locator('latchkey-signin button').count()).toBeGreaterThan(0)
  return { page, fetched }
}

const mfaDefined = (page: Page) => page.evaluate(() => !!customElements.get('latchkey-mfa'))

test('a sign-in page of a server without passwords fetches neither part; a <latchkey-mfa> added later loads, is defined and shows', async () => {
  const context = await plain.browser.newContext()
  const { page, fetched } = await open(context, plain.server.url + '/signin')
  expect(await mfaDefined(page)).toBe(false)
  expect(fetched).toEqual([])
  // An app's settings view, rendered later: the element is found, its code fetched, the element upgraded.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<section><latchkey-mfa></latchkey-mfa></section>'))
  await expect.poll(() => mfaDefined(page)).toBe(true)
  expect(fetched).toEqual(['mfa-element'])
  await expect.poll(() => page.locator('latchkey-mfa').evaluate((el) => !!el.shadowRoot)).toBe(true)
  await context.close()
})

test('a page that has <latchkey-mfa> from the start defines it; { lazy: false } defines it with none on the page', async () => {
  const context = await plain.browser.newContext()
  const settings = await open(context, plain.server.url + '/settings')
  await expect.poll(() => mfaDefined(settings.page)).toBe(true)
  const eager = await open(context, plain.server.url + '/eager')
  await expect.poll(() => mfaDefined(eager.page)).toBe(true)
  expect(await eager.page.locator('latchkey-mfa').count()).toBe(0)
  await context.close()
})

test('a server with a Password() provider: the password forms are fetched, and show', async () => {
  const context = await withPasswords.browser.newContext()
  const { page, fetched } = await open(context, withPasswords.server.url + '/signin')
  await continueAs(page, 'pat@example.com')
  await expect.poll(() => page.locator('latchkey-signin form[part~="password-form"]').isVisible()).toBe(true)
  expect(fetched).toEqual(['password-forms'])
  await context.close()
})
