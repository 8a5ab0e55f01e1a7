/**
 * Time to a known session after a reload, with round-trip latency emulated through CDP
 * (`Network.emulateNetworkConditions`, on the page's target): one signed-in tab, reloaded N times;
 * each time, from navigation start to the first "signed in as" in the DOM (the shell's observer),
 * and the part of it from the page's first script on: the client's own share (loading its
 * scripts, running them, learning the session), without the document's round trip and the
 * browser's commit of the new page, which are the same whatever the client. The scripts come from
 * the HTTP cache, as an app's hashed assets do on a reload.
 */
import type { Browser } from 'playwright-core'
import type { Bundles } from './bundles.js'
import type { Client } from './clients.js'
import { realMaxAge, realUpdateAge } from './hour.js'
import { openTabs, signedIn } from './tabs.js'

export interface ReloadTimes {
  /** ms from navigation start to "signed in as", one per reload. */
  fromStart: number[]
  /** ms from the page's first script to "signed in as". */
  fromPage: number[]
}

export async function reloadTimes(browser: Browser, bundles: Bundles, client: Client, reloads: number, rtt: number): Promise<ReloadTimes> {
  const server = await client.start(bundles, { maxAge: realMaxAge, updateAge: realUpdateAge })
  try {
    const { context, tabs } = await openTabs(browser, client, server, 1)
    const [page] = tabs
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: rtt, downloadThroughput: -1, uploadThroughput: -1 })
    const out: ReloadTimes = { fromStart: [], fromPage: [] }
    for (let i = 0; i < reloads; i++) {
      await page.reload({ waitUntil: 'domcontentloaded' })
      await signedIn(page)
      await page.waitForFunction(() => typeof (window as { known?: number }).known === 'number')
      const { known, started } = await page.evaluate(() => {
        const w = window as unknown as { known: number; started: number }
        return { known: w.known, started: w.started }
      })
      out.fromStart.push(known)
      out.fromPage.push(known - started)
    }
    await context.close()
    return out
  } finally {
    await server.close()
  }
}
