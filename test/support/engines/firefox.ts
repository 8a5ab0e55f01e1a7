/** Firefox through WebDriver BiDi (puppeteer-core), Debian's firefox-esr. */
import puppeteer, { type Page } from 'puppeteer-core'
import { clearFromPage, poll, type Engine, type LaunchOptions, type Tab } from './index.js'

export async function launchFirefox(executablePath: string, { serviceWorkers = true }: LaunchOptions = {}): Promise<Engine> {
  const extraPrefsFirefox = serviceWorkers ? {} : { 'dom.serviceWorkers.enabled': false }
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath, protocol: 'webDriverBiDi', headless: true, extraPrefsFirefox })
  return {
    name: 'firefox',
    async newProfile() {
      const context = await browser.createBrowserContext()
      return {
        newTab: async (url) => {
          const tab = puppeteerTab(await context.newPage())
          await tab.goto(url)
          return tab
        },
        close: () => context.close(),
      }
    },
    close: () => browser.close(),
  }
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
