/**
 * A signed-in browser with T tabs of one client's page: a new profile (context), the user signed
 * in from a blank page of the app's origin (the cookie is the browser's), then the tabs opened one
 * after the other, each waited for until it shows "signed in as". With latchkey's worker, the
 * first tab registers it and the others open once it controls the first.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Client } from './clients.js'
import type { BenchServer } from './latchkey-server.js'

export interface OpenTabs {
  context: BrowserContext
  tabs: Page[]
}

/** Makes `Date.now()` run `factor` times faster than real time from the page's first script on. */
const fastClock = (factor: number) => `(() => {
  const real = Date.now.bind(Date)
  const start = real()
  Date.now = () => start + (real() - start) * ${factor}
})()`

export const signedIn = (page: Page) => page.waitForFunction(() => document.getElementById('who')?.textContent?.startsWith('signed in as '), undefined, { timeout: 20_000 })

export async function openTabs(browser: Browser, client: Client, server: BenchServer, count: number, clockFactor = 1): Promise<OpenTabs> {
  const context = await browser.newContext()
  if (client.scaledClock && clockFactor !== 1) await context.addInitScript(fastClock(clockFactor))
  const blank = await context.newPage()
  await blank.goto(`${server.url}/blank`)
  if (!(await blank.evaluate(server.signInScript))) throw new Error(`${client.name}: sign-in failed`)
  const tabs: Page[] = []
  for (let i = 0; i < count; i++) {
    const page = await context.newPage()
    page.on('pageerror', (e) => console.error(`  [${client.name} page error] ${e.message}`))
    await page.goto(server.url + client.path)
    await signedIn(page)
    if (client.worker && i === 0) await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 20_000 })
    tabs.push(page)
  }
  await blank.close()
  return { context, tabs }
}
