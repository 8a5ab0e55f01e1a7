/** Chromium through Playwright, as the other browser tests drive it. */
import type { Page } from 'playwright-core'
import { launchBrowser } from '../browser.js'
import { poll, type Engine, type Tab } from './index.js'

export async function launchChromium(): Promise<Engine> {
  const browser = await launchBrowser()
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
    evaluate,
    waitFor: (fn, arg, timeout) => poll(() => evaluate(fn, arg), timeout, `${fn} (${JSON.stringify(arg)})`),
  }
}
