/** Shared steps of the browser tests. */
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startAppServer, type AppServer, type AppServerOptions } from '../support/app-server.js'
import { browserAnd } from '../support/browser-and.js'
import { ensureBuilt } from './ensure-built.js'

declare global {
  interface Window {
    /** The test page's client: every built-in plugin (passkey with `?passkey`), and `use` to add a stand-in one. */
    client: import('../../src/client/index.js').AuthClient & import('../../src/components/plugins.js').Plugged & { phone: import('../../src/client/index.js').PhoneCodesClient; use(plugin: import('../../src/client/index.js').ClientPlugin): void }
    changes: { at: number; email: string | null; stale: boolean }[]
    ready?: boolean
    /** Times the test page came back from the back-forward cache (test/support/app-server.ts). */
    restored?: number
    createAuthClient: typeof import('../../src/client/index.js').createAuthClient
  }
}

/** Opens the test page and waits for the client (and, unless `nosw`, the worker's control). */
export async function openPage(context: BrowserContext, url: string, { controlled = true } = {}): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('[page error]', e.message))
  await page.goto(url)
  await page.waitForFunction(() => window.ready === true)
  if (controlled) await waitForController(page)
  return page
}

export async function waitForController(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      navigator.serviceWorker.controller ??
      new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })),
  )
}

/**
 * The sign-in element's first step: `identifier` typed, Continue, and the ways offered shown (from
 * those offered for another identifier, Back first). `host`: the element's selector.
 */
export async function continueAs(page: Page, identifier: string, host = 'latchkey-signin'): Promise<void> {
  // A background tab gets no animation frames, which Playwright's click waits for.
  await page.bringToFront()
  const back = page.locator(`${host} [part~="ways-step"] [part~="back"]`)
  if (await back.isVisible()) await back.click()
  await page.locator(`${host} input[part~="identifier"]`).fill(identifier)
  await page.locator(`${host} button[part~="continue"]`).click()
  await page.locator(`${host} [part~="ways-step"]`).waitFor()
}

/** Signs `username` in with the test app's credentials provider from the page's script (an address not proven: `<username>@example.com`). */
export const signInAs = (page: Page, username: string) =>
  page.evaluate(async (username) => {
    const result = await window.client.signIn('credentials', { username, password: 'secret', redirect: false })
    if (!result.ok) throw new Error(`sign-in refused: ${result.error}`)
  }, username)

/** Signs in with the test app's credentials provider: the username, Continue, then the password. */
export async function signInWithForm(page: Page, username: string, password = 'secret', host = 'latchkey-signin'): Promise<void> {
  await continueAs(page, username, host)
  await page.locator(`${host} form[part~="credentials-form"] input[name="password"]`).fill(password)
  await page.locator(`${host} form[part~="credentials-form"] button[type="submit"]`).click()
}

/** Asks for a sign-in email to `email` from the sign-in element: the address, Continue, then the email way. */
export async function sendSignInEmail(page: Page, email: string, host = 'latchkey-signin'): Promise<void> {
  await continueAs(page, email, host)
  await page.locator(`${host} form[part~="email-form"] button[type="submit"]`).click()
}

/**
 * Resolves once the page's worker has nothing left to do: no read, observed answer or device
 * binding under way (sw/index.ts answers `settle`). Where a test asserts that the worker did
 * nothing, it asserts after this: anything the worker started, however late, has happened.
 */
export const workerSettled = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { port1, port2 } = new MessageChannel()
        port1.onmessage = () => resolve()
        const session = new URL(window.client.basePath + '/session', location.origin).href
        navigator.serviceWorker.controller!.postMessage({ latchkey: 'settle', session }, [port2])
      }),
  )

/** Resolves once `<latchkey-signin>` has no sign-in work under way (its `settled`, docs/elements.md). */
export const settled = (page: Page) => page.locator('latchkey-signin').evaluate((el) => (el as HTMLElement & { settled: Promise<void> }).settled)

export const userName = (page: Page) => page.locator('latchkey-user [part="name"]')
export const statusOf = (page: Page) => page.evaluate(() => window.client.status)
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A sign-in page whose client carries sso() (with password() and emailCodes()), for the enterprise sign-in tests. */
export const ssoPage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title>
<main><h1>Sign in</h1><latchkey-signin></latchkey-signin></main>
<script type="module">
import { createAuthClient, password, emailCodes, sso } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js', plugins: [password(), emailCodes(), sso()] })
defineElements(window.client)
window.ready = true
</script></html>`

/** `ssoPage` (served at /sso) in a new context, its first step drawn; `problems` collects the page's errors. */
export async function openSsoPage(env: { browser: Browser; server: AppServer }) {
  const context = await env.browser.newContext()
  const page = await openPage(context, `${env.server.url}/sso`)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  await page.locator('latchkey-signin [part~="identifier-form"]').waitFor()
  await settled(page)
  return { context, page, problems }
}

/**
 * A browser test file's set-up with the test app server (test/support/browser.ts, `browserAnd`):
 * the browser files built first. `options` may be a function, called after the build, for options
 * that need work first (scripts to bundle, another server to start).
 */
export function browserAndServer(
  options?: AppServerOptions | (() => AppServerOptions | Promise<AppServerOptions>),
  { timeout }: { timeout?: number } = {},
): { browser: Browser; server: AppServer } {
  return browserAnd(
    async () => {
      await ensureBuilt()
      return startAppServer(typeof options === 'function' ? await options() : options)
    },
    { timeout },
  )
}

/** Run in a page of the origin: the stored session record is due, as when its due instant passed while no tab ran. */
export const markDue = () =>
  new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('latchkey')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const tx = open.result.transaction('sessions', 'readwrite')
      const cursor = tx.objectStore('sessions').openCursor()
      cursor.onsuccess = () => void cursor.result?.update({ ...cursor.result.value, due: 0 })
      tx.oncomplete = () => resolve(open.result.close())
    }
  })

/**
 * Run in a page of the origin: whether the worker's store holds a device key (sw/device-binding.ts
 * stores it once the server bound the session and answered the registration). Read without making
 * the database: one opened here before the worker's would lack its `keys` store.
 */
export const holdsDeviceKey = () =>
  new Promise<boolean>((resolve) => {
    const open = indexedDB.open('latchkey-device')
    open.onupgradeneeded = () => open.transaction!.abort()
    open.onerror = () => resolve(false)
    open.onsuccess = () => {
      const db = open.result
      if (!db.objectStoreNames.contains('keys')) return resolve((db.close(), false))
      const count = db.transaction('keys').objectStore('keys').count()
      count.onsuccess = () => resolve((db.close(), count.result > 0))
      count.onerror = () => resolve((db.close(), false))
    }
  })

/** Gives `page` Chromium's virtual authenticator (CTAP2, internal, resident keys, user verification), for passkeys. */
export async function addAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
}

/** The focused element through shadow roots, as its chain of hosts, e.g. `latchkey-signin > input[name=code]`. */
export const deepFocus = (page: Page) =>
  page.evaluate(() => {
    const names: string[] = []
    for (let at = document.activeElement; at; at = at.shadowRoot?.activeElement ?? null) {
      names.push(at.localName + (at.getAttribute('name') ? `[name=${at.getAttribute('name')}]` : ''))
    }
    return names.join(' > ')
  })

/**
 * Whether the focus is on the element `path` leads to: each selector but the last finds a host
 * in the root before it (the document, then the shadow roots), the last the element itself.
 */
export const focusedAt = (page: Page, ...path: string[]) =>
  page.evaluate((path) => {
    let root: Document | ShadowRoot = document
    let target: Element | null = null
    for (const [i, selector] of path.entries()) {
      target = root.querySelector(selector)
      if (!target) return false
      if (i < path.length - 1) root = target.shadowRoot!
    }
    let at = document.activeElement
    while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement
    return at === target
  }, path)

/** Presses `key` (Tab, or Shift+Tab) until the focus is where `path` leads (see focusedAt); answers the presses. */
export async function tabUntil(page: Page, path: string[], { key = 'Tab', max = 60 } = {}): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(key)
    if (await focusedAt(page, ...path)) return i
  }
  throw new Error(`${key} never reached ${path.join(' > ')}; the focus is on ${await deepFocus(page)}`)
}

/** What sticks out of the window, through the shadow roots: the page scrolling sideways, or an element past an edge. */
export const overflowing = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = []
    const width = document.documentElement.clientWidth
    if (document.scrollingElement!.scrollWidth > width) out.push(`the page scrolls to ${document.scrollingElement!.scrollWidth}px`)
    const walk = (root: ParentNode) => root.querySelectorAll('*').forEach((el) => {
      const box = el.getBoundingClientRect()
      if (box.width && (box.left < -0.5 || box.right > width + 0.5)) out.push(`${el.localName}[part="${el.getAttribute('part') ?? ''}"] spans ${box.left}–${box.right}`)
      if (el.shadowRoot) walk(el.shadowRoot)
    })
    walk(document)
    return out
  })

export { startDemo, type Demo } from '../support/demo.js'
