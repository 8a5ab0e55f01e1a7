/**
 * The core browser flows in Chromium, Firefox and WebKit, written once over test/support/engines:
 * the worker registers and controls the page, a sign-in and a sign-out are heard in another tab,
 * reloads ask /session nothing while it is not due, an unreachable server leaves the session
 * stale and the worker answers the failure without rejecting respondWith(), the drop-in script,
 * the page engine where no worker runs, the React binding, `<latchkey-user>` in a 280 px column,
 * and the passkey button only where the browser has WebAuthn (WebKitGTK has none).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { engineForTests, installedEngines, launchEngine, type Engine, type Profile, type Tab } from '../support/engines/index.js'
import { appPage, buildApp } from '../support/example-app.js'
import { ensureBuilt } from './ensure-built.js'

let server: AppServer

beforeAll(async () => {
  await ensureBuilt()
  server = await startAppServer({ scripts: { '/app-react.js': await buildApp('react') }, pages: { '/react.html': appPage('react'), '/narrow': narrowPage } })
}, 120_000)
afterAll(() => server?.close())

/** `<latchkey-user>` in a 280 px column, as on a small phone. */
const narrowPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>narrow</title>
<div id="narrow" style="width:280px"><latchkey-user></latchkey-user></div>
<script type="module">
import { createAuthClient } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false })
defineElements(window.client)
window.ready = true
</script></html>`

const modes = [
  ['the worker', '', true],
  ['the page engine (no worker)', '?nosw', false],
] as const

/** The test page's client has read the session; with `controlled`, the worker controls the page. */
const ready = (tab: Tab, controlled: boolean) => tab.waitFor((c) => (window as any).ready === true && window.client.status !== 'loading' && !!navigator.serviceWorker.controller === c, controlled)
const statusIs = (tab: Tab, status: string) => tab.waitFor((s) => window.client.status === s, status)
/** <latchkey-user> shows this name (null: none). */
const nameShown = (tab: Tab, name: string | null) => tab.waitFor((n) => (document.querySelector('latchkey-user')?.shadowRoot?.querySelector('[part="name"]')?.textContent ?? null) === n, name)
const signIn = (tab: Tab, username: string) => tab.evaluate((u) => window.client.signIn('credentials', { username: u, password: 'secret', redirect: false }).then((r) => r.ok), username)

// WebKit under a loaded CI machine takes its time; these flows wait on real timers and two tabs.
describe.each(installedEngines('test/e2e/engines.test.ts'))('%s', { timeout: 90_000 }, (name) => {
  const { newProfile } = engineForTests(name)

  test.each(modes)('%s: a sign-in and a sign-out are heard in the other tab; reloads ask /session nothing while not due', async (_mode, query, controlled) => {
    const profile = await newProfile()
    const one = await profile.newTab(server.url + '/' + query)
    await ready(one, controlled)
    const two = await profile.newTab(server.url + '/' + query)
    await ready(two, controlled)
    if (controlled) expect(await one.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toContain('/latchkey-sw.js')
    await statusIs(one, 'unauthenticated')
    const user = `${name}${query.length}`
    expect(await signIn(one, user)).toBe(true)
    await statusIs(two, 'authenticated')
    expect(await two.evaluate(() => window.client.session?.user.email)).toBe(`${user}@example.com`)

    const before = server.sessionRequests.length
    for (let i = 0; i < 3; i++) {
      await two.reload()
      await ready(two, controlled)
      expect(await two.evaluate(() => window.client.status)).toBe('authenticated')
    }
    // The worker saw every navigation pass; a page engine must ask once for its own load.
    expect(server.sessionRequests.length - before).toBeLessThanOrEqual(controlled ? 0 : 3)

    await two.evaluate(() => window.client.signOut({ redirect: false }))
    await statusIs(one, 'unauthenticated')
  })

  test.each(modes)('%s: with the server unreachable the session stays, stale, and failures are NetworkErrors, not page errors', async (_mode, query, controlled) => {
    const profile = await newProfile()
    const tab = await profile.newTab(server.url + '/' + query)
    await ready(tab, controlled)
    const user = `${name}-off${query.length}`
    expect(await signIn(tab, user)).toBe(true)
    // Make the stored record due, so the next ask goes to the network.
    const due = () => tab.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open('latchkey')
      open.onsuccess = () => {
        const tx = open.result.transaction('sessions', 'readwrite')
        const cursor = tx.objectStore('sessions').openCursor()
        cursor.onsuccess = () => void cursor.result?.update({ ...cursor.result.value, due: 0 })
        tx.oncomplete = () => resolve(open.result.close())
      }
    }))
    await due()
    server.setReachable(false)
    try {
      const session = await tab.evaluate(() => window.client.getSession())
      expect(session).toMatchObject({ user: { email: `${user}@example.com` }, stale: true })
      expect(await tab.evaluate(() => window.client.status)).toBe('authenticated')
      // A fresh client asks the network (through the worker, when one controls the page).
      const code = await tab.evaluate(() => window.createAuthClient({ basePath: '/auth', serviceWorker: false }).getProviders().then(() => 'ok', (e) => e.code))
      expect(code).toBe('NetworkError')
      // The app's own fetch: the worker answers 504 Latchkey-Network-Error; without it, fetch rejects.
      const app = await tab.evaluate(() => fetch('/api/me').then((r) => `${r.status} ${r.headers.get('latchkey-network-error')}`, (e) => e.name))
      // Firefox logs a rejected respondWith() to the page as an error blaming the worker.
      expect(tab.errors).toEqual([])
      expect(app).toBe(controlled ? '504 1' : 'TypeError')
    } finally {
      server.setReachable(true)
    }
    await due()
    expect(await tab.evaluate(() => window.client.getSession().then((s) => [s?.user.email, s?.stale ?? false]))).toEqual([`${user}@example.com`, false])
    expect(tab.errors).toEqual([])
  })

  test.each(modes)('the drop-in script signs in and out with %s', async (_mode, query, controlled) => {
    const profile = await newProfile()
    const tab = await profile.newTab(server.url + '/drop-in.html' + query)
    await tab.waitFor((c) => (window as any).Latchkey?.client.status === 'unauthenticated' && !!navigator.serviceWorker.controller === c, controlled)
    const user = `${name}-drop${query.length}`
    expect(await tab.evaluate((u) => (window as any).Latchkey.client.signIn('credentials', { username: u, password: 'secret', redirect: false }).then((r: any) => r.ok), user)).toBe(true)
    await nameShown(tab, user)
    await tab.reload()
    await nameShown(tab, user)
    await tab.evaluate(() => (window as any).Latchkey.client.signOut({ redirect: false }))
    await nameShown(tab, null)
  })

  test('the React binding re-renders in another tab on a sign-in and a sign-out', async () => {
    const profile = await newProfile()
    const [one, two] = [await profile.newTab(server.url + '/react.html'), await profile.newTab(server.url + '/react.html')]
    const shown = (tab: Tab, text: string) => tab.waitFor((t) => document.getElementById('out')?.textContent === t, text)
    for (const tab of [one, two]) await shown(tab, 'unauthenticated:')
    expect(await signIn(one, `${name}-react`)).toBe(true)
    await shown(two, `authenticated:${name}-react@example.com`)
    await one.evaluate(() => window.client.signOut({ redirect: false }))
    await shown(two, 'unauthenticated:')
  })

  test('<latchkey-user> holds in 280 px with a long name and address: nothing overflows, Sign out is inside and on top', async () => {
    const profile = await newProfile()
    const tab = await profile.newTab(server.url + '/narrow')
    await tab.waitFor(() => (window as any).ready === true && window.client.status === 'unauthenticated')
    // A name with nowhere to break; the credentials provider makes <name>@example.com its address.
    const long = `${name}-Maximiliana-Alexandrina-Theodora-Konstantinopoulou`
    expect(await signIn(tab, long)).toBe(true)
    await nameShown(tab, long)
    const placed = await tab.evaluate(() => {
      const host = document.querySelector('latchkey-user')!
      const column = document.getElementById('narrow')!.getBoundingClientRect()
      const button = host.shadowRoot!.querySelector('[part~="signout"]')!
      const box = button.getBoundingClientRect()
      const hit = host.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return { overflows: host.scrollWidth > host.clientWidth, inside: box.left >= column.left && box.right <= column.right, onTop: !!hit && button.contains(hit) }
    })
    expect(placed).toEqual({ overflows: false, inside: true, onTop: true })
    await tab.evaluate(() => (document.querySelector('latchkey-user')!.shadowRoot!.querySelector('[part~="signout"]') as HTMLButtonElement).click())
    await statusIs(tab, 'unauthenticated')
  })

  test('<latchkey-signin> offers a passkey only where the browser has WebAuthn', async () => {
    const webauthn = name !== 'webkit'
    const profile = await newProfile()
    for (const query of ['?nosw', '?nosw&passkey']) {
      const tab = await profile.newTab(server.url + '/' + query)
      const buttons = () => tab.evaluate(() => [...(document.querySelector('latchkey-signin')?.shadowRoot?.querySelectorAll('button[data-provider]') ?? [])].map((b) => b.getAttribute('data-provider')))
      await tab.waitFor(() => !!document.querySelector('latchkey-signin')?.shadowRoot?.querySelector('button[data-provider="acme"]'))
      // The ways offered after a username: the passkey among them.
      await tab.evaluate(() => {
        const root = document.querySelector('latchkey-signin')!.shadowRoot!
        root.querySelector<HTMLInputElement>('input[part~="identifier"]')!.value = 'ada'
        root.querySelector<HTMLFormElement>('form[part~="identifier-form"]')!.requestSubmit()
      })
      await tab.waitFor(() => !!document.querySelector('latchkey-signin')?.shadowRoot?.querySelector('[part~="ways-step"]'))
      expect(await tab.evaluate(() => typeof PublicKeyCredential === 'function')).toBe(webauthn)
      expect(await buttons()).toEqual(webauthn ? ['acme', 'legacy', 'passkey'] : ['acme', 'legacy'])
    }
  })
})
