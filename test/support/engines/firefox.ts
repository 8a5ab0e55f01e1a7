/** Firefox through WebDriver BiDi (puppeteer-core), Debian's firefox-esr. */
import puppeteer, { type Page } from 'puppeteer-core'
import { poll, type Engine, type Tab } from './index.js'

export async function launchFirefox(executablePath: string): Promise<Engine> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath, protocol: 'webDriverBiDi', headless: true })
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
    evaluate,
    waitFor: (fn, arg, timeout) => poll(() => evaluate(fn, arg), timeout, `${fn} (${JSON.stringify(arg)})`),
  }
}
