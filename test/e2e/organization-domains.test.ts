/**
 * The domains part of `<latchkey-organization>` in Chromium, against the test app with the
 * organizations plugin asking a DNS server the test starts: the owner adds a domain from the
 * keyboard, reads the TXT record shown, the test publishes it, Verify; a user
 * of the domain (a proven address) is offered the organization and joins it; a wrong record is
 * refused in words; axe finds nothing, light and in Arabic (right to left).
 */
import { Resolver } from 'node:dns/promises'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, expect, test } from 'vitest'
import { startDnsResponder, type DnsResponder } from '../support/dns-responder.js'
import { violations } from './axe.js'
import { browserAndServer, openPage } from './helpers.js'

const teamPage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Your team</title>
<main><h1>Your team</h1><latchkey-organization></latchkey-organization></main>
<script type="module">
import { createAuthClient, organizations } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js', plugins: [organizations()] })
defineElements(window.client)
window.ready = true
</script></html>`

let dns: DnsResponder | undefined
afterAll(() => dns?.close())
const env = browserAndServer(async () => {
  dns = await startDnsResponder()
  const resolver = new Resolver({ timeout: 1000, tries: 1 })
  resolver.setServers([dns.address])
  return { organizations: { resolveTxt: (name: string) => resolver.resolveTxt(name) }, pages: { '/team': teamPage } }
})

async function open(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await env.browser.newContext()
  const page = await openPage(context, `${env.server.url}/team`)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  return { context, page, problems }
}

/** Signs `email` in through the emailed link: a proven address. */
async function signInByEmail(page: Page, email: string) {
  const sent = env.server.outbox.length
  await page.evaluate((email) => window.client.signIn('email', { email, redirect: false }), email)
  await expect.poll(() => env.server.outbox.length).toBe(sent + 1)
  await page.goto(env.server.outbox.at(-1)!.url)
  await page.waitForFunction(() => window.ready === true && !!window.client.session?.user)
}

const element = (page: Page) => page.locator('latchkey-organization')
const status = (page: Page) => element(page).locator('p[part="message"][role="status"]').textContent()
const errorOf = (page: Page) => element(page).evaluate((el) => (el.shadowRoot!.getElementById('error')!.hidden ? null : el.shadowRoot!.getElementById('error')!.textContent))

test('add a domain from the keyboard, publish its record, verify; a user of the domain joins; axe, light and Arabic', async () => {
  const domain = `acme-${Date.now().toString(36)}.example`
  const ann = await open()
  await signInByEmail(ann.page, 'ann@owner.example')
  await ann.page.evaluate(() => window.client.organizations.create({ name: 'Acme' }))
  const org = element(ann.page)
  await org.locator('input[name="domain"]').waitFor()

  // The keyboard alone: the field, Enter. A refusal shows under the field, which names it.
  await org.locator('input[name="domain"]').focus()
  await ann.page.keyboard.type('127.0.0.1')
  await ann.page.keyboard.press('Enter')
  await expect.poll(() => errorOf(ann.page)).toBe('Enter a domain name such as example.com: not an IP address, a wildcard or a public suffix such as com.')
  expect(await org.locator('input[name="domain"]').getAttribute('aria-describedby')).toBe('error')
  expect(await org.evaluate((el) => el.shadowRoot!.getElementById('error')!.previousElementSibling?.querySelector('input[name="domain"]') !== null)).toBe(true)
  // Empty: refused here, in the same words, nothing sent.
  await org.locator('input[name="domain"]').fill('')
  await ann.page.keyboard.press('Enter')
  await expect.poll(() => errorOf(ann.page)).toBe('Enter a domain name such as example.com: not an IP address, a wildcard or a public suffix such as com.')
  await ann.page.keyboard.type(domain.toUpperCase())
  await ann.page.keyboard.press('Enter')
  await expect.poll(() => status(ann.page)).toBe(`\u2068${domain}\u2069 added: publish its record.`)
  const name = await org.locator('code[part~="record-value"]').first().textContent()
  const value = await org.locator('code[part~="record-value"]').nth(1).textContent()
  expect(name).toBe(`_latchkey-challenge.${domain}`)
  expect(value).toMatch(/^latchkey-domain-verification=[\w-]{43}$/)
  expect(await org.locator(`[part~="domain"][data-domain="${domain}"] [part~="detail"]`).textContent()).toBe('waiting for its DNS record · joins as Member')
  expect(await violations(ann.page)).toEqual([])

  // Not published yet: the error says so; published: verified, the record gone.
  await org.locator('button[part~="verify-domain"]').click()
  await expect.poll(() => errorOf(ann.page)).toBe('The TXT record was not found yet. Publish it, wait for DNS to carry it, and try again.')
  dns!.records.set(name!, [value!])
  await org.locator('button[part~="verify-domain"]').click()
  await expect.poll(() => status(ann.page)).toBe(`\u2068${domain}\u2069 is verified.`)
  expect(await errorOf(ann.page)).toBeNull()
  expect(await org.locator('[part~="domain-record"]').count()).toBe(0)
  expect(await org.locator(`[part~="domain"][data-domain="${domain}"] [part~="detail"]`).textContent()).toBe('verified · joins as Member')

  // Arabic, right to left: the same part in its words, axe-clean.
  await ann.page.evaluate(() => (document.documentElement.lang = 'ar'))
  await expect.poll(() => org.locator('button[part~="add-domain"]').textContent()).toBe('إضافة نطاق')
  expect(await org.locator(`[part~="domain"] bdi[part~="domain"]`).evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
  expect(await violations(ann.page)).toEqual([])

  // A user of the domain, proven by the email link: offered the organization, joins it.
  const bob = await open()
  await signInByEmail(bob.page, `bob@${domain}`)
  const offer = element(bob.page).locator('[part~="joinable-organization"]')
  await expect.poll(() => offer.locator('.what').textContent()).toBe(`Your address at \u2068${domain}\u2069 lets you join \u2068Acme\u2069 as Member.`)
  expect(await violations(bob.page)).toEqual([])
  await offer.locator('button[part~="join"]').click()
  await bob.page.waitForFunction(() => window.client.session?.organization?.role === 'member', undefined, { timeout: 5000 })
  await expect.poll(() => element(bob.page).locator('[part="summary"] [part~="name"]').textContent()).toBe('Acme')
  expect(await offer.count()).toBe(0)
  expect([...ann.problems, ...bob.problems]).toEqual([])
  await ann.context.close()
  await bob.context.close()
})
