/**
 * One user's hour with T tabs open, compressed: what a person does, replayed on the wall clock.
 * In simulated time: a tab becomes visible again every 30 s (`visibilitychange` and `focus`, the
 * tabs in turn), each tab reloads every 10 minutes (the tabs staggered) and navigates within the
 * app 5 minutes after each reload (`pushState` and `popstate`, the way a router changes views).
 * Events on one tab run one after another; the server counts from the first event to the last.
 */
import type { Browser, Page } from 'playwright-core'
import type { Bundles } from './bundles.js'
import type { Client } from './clients.js'
import type { Counts } from './counted.js'
import { openTabs, signedIn } from './tabs.js'

export const simulatedHour = 3600
/** The real updateAge this run stands for: ten due windows in the hour. */
export const realUpdateAge = 360
export const realMaxAge = 86_400
const focusEvery = 30
const reloadEvery = 600

type Action = 'focus' | 'reload' | 'navigate'

interface Event {
  at: number
  tab: number
  action: Action
}

export function schedule(tabs: number): Event[] {
  const events: Event[] = []
  for (let k = 0; (k + 0.5) * focusEvery < simulatedHour; k++) events.push({ at: (k + 0.5) * focusEvery, tab: k % tabs, action: 'focus' })
  for (let tab = 0; tab < tabs; tab++) {
    for (let t = ((tab + 0.5) * reloadEvery) / tabs; t < simulatedHour; t += reloadEvery) {
      events.push({ at: t, tab, action: 'reload' })
      if (t + reloadEvery / 2 < simulatedHour) events.push({ at: t + reloadEvery / 2, tab, action: 'navigate' })
    }
  }
  return events.sort((a, b) => a.at - b.at)
}

const act: Record<Action, (page: Page, n: number) => Promise<unknown>> = {
  focus: (page) =>
    page.evaluate(() => {
      document.dispatchEvent(new Event('visibilitychange'))
      dispatchEvent(new Event('focus'))
    }),
  reload: async (page) => {
    await page.reload({ waitUntil: 'domcontentloaded' })
    await signedIn(page)
  },
  navigate: (page, n) =>
    page.evaluate((n) => {
      history.pushState(null, '', location.pathname.replace(/\/app(\/.*)?$/, `/app/view-${n}`) + location.search)
      dispatchEvent(new PopStateEvent('popstate'))
    }, n),
}

export interface HourResult extends Counts {
  events: Record<Action, number>
  /** Wall-clock seconds the hour took (its events can fall behind on a loaded machine). */
  took: number
}

export async function runHour(browser: Browser, bundles: Bundles, client: Client, tabCount: number, hourSeconds: number): Promise<HourResult> {
  const scale = hourSeconds / simulatedHour
  const server = await client.start(bundles, { maxAge: Math.round(realMaxAge * scale), updateAge: Math.round(realUpdateAge * scale) })
  try {
    const { context, tabs } = await openTabs(browser, client, server, tabCount, 1 / scale)
    // The last tab's own reads land before the count starts.
    await new Promise((r) => setTimeout(r, 300))
    const before = { ...server.counts }
    const events = schedule(tabCount)
    const done = { focus: 0, reload: 0, navigate: 0 }
    const chains: Promise<unknown>[] = tabs.map(() => Promise.resolve())
    const start = Date.now()
    for (const [n, event] of events.entries()) {
      const wait = start + event.at * scale * 1000 - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      chains[event.tab] = chains[event.tab].then(() => act[event.action](tabs[event.tab], n)).then(() => done[event.action]++)
    }
    await Promise.all(chains)
    const end = start + hourSeconds * 1000 - Date.now()
    if (end > 0) await new Promise((r) => setTimeout(r, end))
    const took = (Date.now() - start) / 1000
    const counts = { sessionRequests: server.counts.sessionRequests - before.sessionRequests, adapterReads: server.counts.adapterReads - before.adapterReads }
    await context.close()
    return { ...counts, events: done, took }
  } finally {
    await server.close()
  }
}
