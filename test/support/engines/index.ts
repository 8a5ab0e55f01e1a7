/**
 * One small driver over the three engines, so a browser flow is written once and runs in each:
 * Chromium through Playwright, Firefox through WebDriver BiDi (puppeteer-core), WebKit through
 * WebKitWebDriver and MiniBrowser. Debian's packages only; nothing downloads a browser.
 */
import { existsSync, readdirSync } from 'node:fs'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { chromiumPath } from '../browser.js'
import { missingServiceBanner } from '../needs-service.js'

export type EngineName = 'chromium' | 'firefox' | 'webkit'

export interface Tab {
  goto(url: string): Promise<void>
  reload(): Promise<void>
  /** The history's previous page: from the back-forward cache where the engine keeps it there. */
  back(): Promise<void>
  /**
   * Deletes this origin's IndexedDB databases, service-worker registrations and caches, keeping
   * its cookies, as Safari does to a site not visited for 7 days. Chromium clears them from the
   * browser's side (DevTools' Storage.clearDataForOrigin); the other drivers have no such command,
   * so the page deletes them itself (`clearFromPage`).
   */
  clearSiteData(): Promise<void>
  /** Runs `fn` in the page (its source is sent, so it sees only the page's globals and `arg`). */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>
  /** Polls `fn` in the page until it returns true (a boolean: a DOM node does not cross every driver). */
  waitFor<A = undefined>(fn: (arg: A) => unknown, arg?: A, timeout?: number): Promise<void>
  /** The page's uncaught errors, where the driver hears them (not through WebKitWebDriver). */
  errors: string[]
}

/** A browser profile: its tabs share cookies, storage and the service worker; a new one shares nothing. */
export interface Profile {
  newTab(url: string): Promise<Tab>
  close(): Promise<void>
}

export interface Engine {
  name: EngineName
  newProfile(): Promise<Profile>
  close(): Promise<void>
}

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
export const miniBrowserPath = process.env.MINIBROWSER_PATH ?? findMiniBrowser()

/** Debian puts MiniBrowser under the multiarch directory: /usr/lib/<arch>/webkit2gtk-4.1/. */
function findMiniBrowser(): string | undefined {
  const dirs = existsSync('/usr/lib') ? readdirSync('/usr/lib') : []
  return dirs.flatMap((arch) => ['4.1', '4.0'].map((v) => `/usr/lib/${arch}/webkit2gtk-${v}/MiniBrowser`)).find((f) => existsSync(f))
}

const needs: Record<EngineName, { files: (string | undefined)[]; install: string }> = {
  chromium: { files: [chromiumPath], install: 'chromium' },
  firefox: { files: [firefoxPath], install: 'firefox-esr' },
  webkit: { files: [webkitDriverPath, miniBrowserPath, '/usr/bin/Xvfb'], install: 'webkit2gtk-driver xvfb' },
}

/**
 * The engines installed here. A missing one fails the run under CI=true, since a run that skips
 * an engine is no proof; locally a banner says which engine did NOT run and how to install it.
 * `engines`: the ones this file runs (all by default).
 */
export function installedEngines(run: string, engines = Object.keys(needs) as EngineName[]): EngineName[] {
  return engines.filter((name) => {
    if (needs[name].files.every((f) => f && existsSync(f))) return true
    const fix = `apt-get update && apt-get install -y ${needs[name].install}, then npx vitest run ${run}`
    if (process.env.CI === 'true') throw new Error(`${name} is not installed, and under CI=true every engine must run: ${fix}`)
    console.warn(missingServiceBanner(name, `the ${name} flows of ${run} did NOT run`, fix))
    return false
  })
}

export interface LaunchOptions {
  /** false: the browser runs no service worker (Firefox's `dom.serviceWorkers.enabled`, as in its private windows). Firefox only. */
  serviceWorkers?: boolean
  /**
   * true: each profile gets a virtual authenticator (WebDriver's authenticator extension: CTAP2,
   * internal, resident keys, user verification, the user consenting and verified), which makes
   * and uses passkeys without a prompt. Firefox only: over Marionette (test/support/engines/marionette.ts),
   * with `security.webauth.webauthn_enable_softtoken` on and `…_usbtoken` off.
   */
  virtualAuthenticator?: boolean
}

export async function launchEngine(name: EngineName, options: LaunchOptions = {}): Promise<Engine> {
  if (options.serviceWorkers === false && name !== 'firefox') throw new Error(`${name}: service workers can be turned off only in Firefox here`)
  if (options.virtualAuthenticator && name !== 'firefox') throw new Error(`${name}: a virtual authenticator is set up here for Firefox only (Chromium's: test/webauthn/support/browser.ts)`)
  if (name === 'chromium') return (await import('./chromium.js')).launchChromium()
  if (name === 'firefox') return (await import('./firefox.js')).launchFirefox(firefoxPath, options)
  return (await import('./webkit.js')).launchWebKit(webkitDriverPath, miniBrowserPath!)
}

/**
 * One engine for a describe block: launched before its tests and closed after them; each test's
 * profile is closed after it, even when the test fails (WebKitWebDriver holds one at a time).
 */
export function engineForTests(name: EngineName, options: LaunchOptions = {}): { newProfile(): Promise<Profile> } {
  let engine: Engine | undefined
  let open: Profile | undefined
  beforeAll(async () => void (engine = await launchEngine(name, options)))
  afterEach(async () => {
    await open?.close()
    open = undefined
  })
  afterAll(() => engine?.close())
  return { newProfile: async () => (open = await engine!.newProfile()) }
}

/** `waitFor` over `evaluate`: the same polling in every engine. `what` names it in a timeout. */
export async function poll(evaluate: () => Promise<unknown>, timeout = 10_000, what = ''): Promise<void> {
  const end = Date.now() + timeout
  while (!(await evaluate())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Run in the page: what Storage.clearDataForOrigin clears, from the page's side. Every
 * registration is unregistered (its worker stops controlling pages at their next load), caches are
 * deleted, then every database; a connection the worker or a tab holds is closed on
 * `versionchange` (src/client/open-store.ts), so the deletes finish. Resolves to what was deleted.
 */
export const clearFromPage = async () => {
  const registrations = await navigator.serviceWorker?.getRegistrations() ?? []
  await Promise.all(registrations.map((r) => r.unregister()))
  const cacheNames = await caches.keys()
  await Promise.all(cacheNames.map((n) => caches.delete(n)))
  const databases = (await indexedDB.databases()).map((d) => d.name!)
  await Promise.all(databases.map((name) => new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name)
    request.onsuccess = resolve
    request.onerror = () => reject(request.error)
  })))
  return { registrations: registrations.length, caches: cacheNames.length, databases }
}
