/**
 * Chromium through Playwright, as the other browser tests drive it, but with the back-forward
 * cache on, as in a browser people use: Playwright turns it off by default
 * (`--disable-back-forward-cache`).
 */
import type { Page } from 'playwright-core'
import { launchBrowser } from '../browser.js'
import { poll, type Engine, type Tab } from './index.js'

export async function launchChromium(): Promise<Engine> {
  const browser = await launchBrowser({ backForwardCache: true })
  return {
    name: 'chromium',
    async newProfile() {
      const context = await browser.newContext()
      return {
        newTab: async (url) => {
          const tab = playwrightTab(await context.newPage())
          await tab.goto(url)
          return tab
        },
        close: () => context.close(),
      }
    },
    close: () => browser.close(),
  }
}

function playwrightTab(page: Page): Tab {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const evaluate: Tab['evaluate'] = (fn, arg) => page.evaluate(fn as any, arg)
  return {
    errors,
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    // A page restored from the back-forward cache fires no load event: wait for the commit.
    back: async () => void (await page.goBack({ waitUntil: 'commit' })),
    async clearSiteData() {
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(page.url()).origin, storageTypes: 'indexeddb,service_workers,cache_storage' })
      await cdp.detach()
    },
    evaluate,
    waitFor: (fn, arg, timeout) => poll(() => evaluate(fn, arg), timeout, `${fn} (${JSON.stringify(arg)})`),
  }
}
