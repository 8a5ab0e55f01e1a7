/**
 * The drop-in script: a plain HTML page with one <script src="/latchkey.iife.js">, no build step,
 * and its passkey part. What only some pages need loads from beside it where one does: the
 * account settings elements (latchkey-settings.js), the sign-in's later steps (latchkey-steps.js),
 * the session kept in the page (latchkey-page-session.js). The settings part brings the
 * organizations and connected apps plugins with their elements.
 */
import type { BrowserContext, Route } from 'playwright-core'
import { expect, test } from 'vitest'
import { openWithAuthenticator } from '../webauthn/support/browser.js'
import { browserAndServer, continueAs, signInWithForm, userName } from './helpers.js'

const dropInPage = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>latchkey drop-in</title>
<script src="/latchkey.iife.js" data-base-path="/auth" data-service-worker="false"></script>
${body}
</html>`
const pages = {
  '/account.html': dropInPage('<latchkey-signin></latchkey-signin>\n<latchkey-profile><a slot="signed-out" href="/">Sign in first</a></latchkey-profile>'),
  '/signin.html': dropInPage('<latchkey-signin></latchkey-signin>'),
  '/team.html': dropInPage('<latchkey-signin></latchkey-signin>\n<latchkey-organization-switcher></latchkey-organization-switcher>\n<latchkey-organization></latchkey-organization>'),
}
// With second factors, organizations and the authorization server on, so that every section of the profile is there.
const env = browserAndServer({ pages, mfa: true, organizations: true, oauthServer: true })
const withPasswords = browserAndServer({ pages, password: true })

/** The drop-in's later parts the browser asked for (`latchkey-settings`, ...). */
function laterParts(context: BrowserContext): string[] {
  const asked: string[] = []
  context.on('request', (r) => {
    const part = /^\/(latchkey-(?:settings|steps|page-session))\.js$/.exec(new URL(r.url()).pathname)?.[1]
    if (part) asked.push(part)
  })
  return asked
}

test.each([
  ['with the worker', '', true],
  ['without a worker (data-service-worker="false")', '?nosw', false],
])('the drop-in page signs in and out with one global and the components, %s', async (_name, query, controlled) => {
  const context = await env.browser.newContext()
  const asked = laterParts(context)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(env.server.url + '/drop-in.html' + query)
  expect(await page.evaluate(() => Object.keys((window as any).Latchkey).sort())).toEqual(['AuthClientError', 'client', 'createAuthClient', 'defineElements'])
  expect(await page.evaluate(() => Object.keys(window).filter((k) => /latchkey/i.test(k)))).toEqual(['Latchkey'])
  await expect.poll(() => page.locator('latchkey-signin button[data-provider="acme"]').textContent()).toBe('Sign in with Acme')
  await signInWithForm(page, 'drop' + query.length)
  await expect.poll(() => userName(page).textContent()).toBe('drop' + query.length)
  expect(await page.evaluate(() => (window as any).Latchkey.client.status)).toBe('authenticated')
  await page.reload()
  await expect.poll(() => userName(page).textContent()).toBe('drop' + query.length)
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(controlled)
  await page.locator('latchkey-user button[part~="signout"]').click()
  await expect.poll(() => userName(page).count()).toBe(0)
  expect(errors).toEqual([])
  // Signed in, reloaded and out, the page never asked for the settings elements or the later
  // steps (a credentials sign-in has none); the session kept in the page where no worker did.
  expect(asked.filter((part) => part !== 'latchkey-page-session')).toEqual([])
  if (!controlled) expect(asked).toContain('latchkey-page-session')
  await context.close()
})

test('a page with <latchkey-profile>: its code loads from beside the script, once, and the element upgrades; until then it shows nothing', async () => {
  const context = await env.browser.newContext()
  const asked = laterParts(context)
  // The settings file is held until the page has signed in: the element waits for its code meanwhile.
  let held!: (route: Route) => void
  const arrived = new Promise<Route>((resolve) => (held = resolve))
  await context.route('**/latchkey-settings.js', (route) => held(route))
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`))
  await page.goto(env.server.url + '/account.html')
  const route = await arrived
  await signInWithForm(page, 'dora')
  await expect.poll(() => page.evaluate(() => (window as any).Latchkey.client.status)).toBe('authenticated')
  // Signed in, before its code: not the signed-out link it holds, nor anything else.
  const profile = page.locator('latchkey-profile')
  expect(await page.evaluate(() => !!customElements.get('latchkey-profile'))).toBe(false)
  expect(await profile.locator('a[slot="signed-out"]').isVisible()).toBe(false)
  await route.continue()
  // Upgraded, with the drop-in's client: this device's session, the user's address.
  await expect.poll(() => profile.locator('latchkey-sessions li[part="session"][data-current]').count()).toBe(1)
  expect(await profile.locator('a[slot="signed-out"]').isVisible()).toBe(false)
  // Its sections are the same definitions the document gets: one set of elements.
  expect(await page.evaluate(() => customElements.get('latchkey-sessions') === document.querySelector('latchkey-profile')!.shadowRoot!.querySelector('latchkey-sessions')!.constructor)).toBe(true)
  // Each section has read its list (a read still under way when signing out would answer 401).
  await expect.poll(() => profile.locator('latchkey-mfa button[part~="enroll"]').count()).toBe(1)
  // The settings part added connectedApps() to the drop-in's client: the section, with no app allowed yet.
  await expect.poll(() => profile.locator('section[part~="connected-apps"] latchkey-connected-apps [part="empty"]').textContent()).toBe('No app can use your account.')
  expect(await page.evaluate(() => typeof (window as any).Latchkey.client.connectedApps?.revoke)).toBe('function')
  await env.server.idle()
  // Signed out, the element shows what it holds for that.
  await page.evaluate(() => (window as any).Latchkey.client.signOut({ redirect: false }))
  await expect.poll(() => profile.locator('a[slot="signed-out"]').isVisible()).toBe(true)
  expect(asked.sort()).toEqual(['latchkey-page-session', 'latchkey-settings'])
  expect(errors).toEqual([])
  await context.close()
})

test('the organization elements: the settings part adds organizations() to the drop-in client; a sign-in page has none', async () => {
  const context = await env.browser.newContext()
  const asked = laterParts(context)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.goto(env.server.url + '/signin.html')
  await page.locator('latchkey-signin input[part~="identifier"]').waitFor()
  expect(await page.evaluate(() => ['organizations', 'connectedApps'].filter((name) => name in (window as any).Latchkey.client))).toEqual([])
  expect(asked).not.toContain('latchkey-settings')
  await page.goto(env.server.url + '/team.html')
  await signInWithForm(page, 'olga')
  const switcher = page.locator('latchkey-organization-switcher')
  await expect.poll(() => switcher.locator('button[aria-current="true"] [part~="name"]').textContent()).toBe('Personal account')
  expect(await page.evaluate(() => typeof (window as any).Latchkey.client.organizations?.create)).toBe('function')
  await switcher.locator('button[part~="new"]').click()
  await switcher.locator('input[name="name"]').fill('Drop Co')
  await switcher.locator('button[part~="create"]').click()
  await expect.poll(() => switcher.locator('button[aria-current="true"] [part~="name"]').textContent()).toBe('Drop Co')
  await expect.poll(() => page.locator('latchkey-organization [part="summary"] [part~="name"]').textContent()).toBe('Drop Co')
  expect(await page.evaluate(() => (window as any).Latchkey.client.session?.organization?.slug)).toBe('drop-co')
  expect(asked.filter((part) => part === 'latchkey-settings')).toEqual(['latchkey-settings'])
  expect(errors).toEqual([])
  await context.close()
})

test('a sign-in page fetches no settings file; a server with passwords has the steps file fetched once the next step needs its forms', async () => {
  const context = await withPasswords.browser.newContext()
  const asked = laterParts(context)
  const page = await context.newPage()
  await page.goto(withPasswords.server.url + '/signin.html')
  await continueAs(page, 'pat@example.com')
  await expect.poll(() => page.locator('latchkey-signin form[part~="password-form"]').isVisible()).toBe(true)
  await signInWithForm(page, 'pam')
  await expect.poll(() => page.evaluate(() => (window as any).Latchkey.client.status)).toBe('authenticated')
  expect(asked.sort()).toEqual(['latchkey-page-session', 'latchkey-steps'])
  await context.close()
})

test('a part of the drop-in loaded on its own says what it is', async () => {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  await page.goto(env.server.url + '/?nosw')
  // A string: the test's own transform would rewrite an import() in a function.
  const error = await page.evaluate<string>(`import('/latchkey-settings.js').then(() => '', (e) => e.message)`)
  expect(error).toMatch(/part of the drop-in script, loaded by latchkey\.iife\.js/)
  await context.close()
})

test('the passkey part: a second script tag adds Latchkey.client.passkey, and the passkey button signs in', async () => {
  const { page } = await openWithAuthenticator(env.browser, env.server.url + '/drop-in.html?passkey&nosw', { waitForReady: false })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // Still one global: the passkey part adds to the drop-in's.
  expect(await page.evaluate(() => Object.keys(window).filter((k) => /latchkey/i.test(k)))).toEqual(['Latchkey'])
  expect(await page.evaluate(() => Object.keys((window as any).Latchkey).sort())).toEqual(['AuthClientError', 'PasskeyError', 'client', 'createAuthClient', 'defineElements', 'passkey'])
  const registered = await page.evaluate(async () => {
    const { client } = (window as any).Latchkey
    await client.passkey.register({ email: 'drop.passkey@example.com' })
    await client.signOut({ redirect: false })
    return client.status
  })
  expect(registered).toBe('unauthenticated')
  await continueAs(page, 'drop.passkey@example.com')
  await page.locator('latchkey-signin button[part~="passkey"]').click()
  await expect.poll(() => userName(page).textContent()).toBe('drop.passkey@example.com')
  expect(await page.locator('latchkey-signin input[name="username"]').getAttribute('autocomplete')).toBe('username webauthn')
  expect(errors).toEqual([])
  await page.context().close()
})

test('the passkey part alone says what it needs', async () => {
  const context = await env.browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // The ESM test page: no drop-in global to attach to.
  await page.goto(env.server.url + '/?nosw')
  await page.addScriptTag({ url: '/latchkey-passkey.iife.js' })
  await expect.poll(() => errors.join()).toMatch(/load latchkey\.iife\.js first/)
  await context.close()
})
