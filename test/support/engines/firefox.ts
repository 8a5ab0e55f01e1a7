/** Firefox through WebDriver BiDi (puppeteer-core), Debian's firefox-esr. */
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { clearFromPage, poll, type Engine, type LaunchOptions, type Tab } from './index.js'
import { connectMarionette, type Marionette } from './marionette.js'

export async function launchFirefox(executablePath: string, { serviceWorkers = true, virtualAuthenticator = false }: LaunchOptions = {}): Promise<Engine> {
  const extraPrefsFirefox: Record<string, unknown> = {
    ...(serviceWorkers ? {} : { 'dom.serviceWorkers.enabled': false }),
    // WebAuthn goes to the virtual authenticators (the soft token), not to USB keys; Marionette on a free port.
    ...(virtualAuthenticator ? { 'security.webauth.webauthn_enable_softtoken': true, 'security.webauth.webauthn_enable_usbtoken': false, 'marionette.port': 0 } : {}),
  }
  const args = virtualAuthenticator ? ['--marionette'] : []
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath, protocol: 'webDriverBiDi', headless: true, args, extraPrefsFirefox })
  let marionette: Marionette | undefined
  try {
    if (virtualAuthenticator) marionette = await connectMarionette(profileDir(browser))
  } catch (e) {
    await browser.close()
    throw e
  }
  return {
    name: 'firefox',
    async newProfile() {
      const context = await browser.createBrowserContext()
      // Firefox's virtual authenticators serve every context: this one is removed with the profile,
      // so the next profile starts with no passkey.
      const authenticator = await marionette?.addVirtualAuthenticator({ protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserConsenting: true, isUserVerified: true })
      return {
        newTab: async (url) => {
          const tab = puppeteerTab(await context.newPage())
          await tab.goto(url)
          return tab
        },
        close: async () => {
          await context.close()
          if (authenticator) await marionette!.removeVirtualAuthenticator(authenticator)
        },
      }
    },
    close: async () => {
      marionette?.close()
      await browser.close()
    },
  }
}

/** The profile puppeteer made for this run (its `--profile` argument), where Marionette writes its port. */
function profileDir(browser: Browser): string {
  const args = browser.process()?.spawnargs ?? []
  const at = args.indexOf('--profile')
  if (at < 0) throw new Error(`no --profile among Firefox's arguments: ${args.join(' ')}`)
  return args[at + 1]!
}

function puppeteerTab(page: Page): Tab {
  const errors: string[] = []
  // Firefox reports a service worker's failed respondWith() to the page as an error.
  page.on('pageerror', (e) => errors.push(String((e as Error).message ?? e)))
  const evaluate: Tab['evaluate'] = (fn, arg) => page.evaluate(fn as any, arg) as any
  return {
    errors,
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    // A page restored from the back-forward cache fires no load event: wait for the URL instead.
    back: async () => {
      const from = await evaluate(() => location.href)
      await evaluate(() => void setTimeout(() => history.back()))
      await poll(() => evaluate(() => location.href).then((url) => url !== from, () => false), 10_000, 'history.back()')
    },
    clearSiteData: async () => void (await evaluate(clearFromPage)),
    evaluate,
    waitFor: (fn, arg, timeout) => poll(() => evaluate(fn, arg), timeout, `${fn} (${JSON.stringify(arg)})`),
  }
}
