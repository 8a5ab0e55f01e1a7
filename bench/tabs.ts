/**
 * `/session` requests per tab-hour, in real Chromium tabs against the real server: latchkey's
 * worker against a client that refetches the session in every tab on every focus (the common
 * "refetch on window focus" default). One simulated hour is compressed into `BENCH_TAB_SECONDS`
 * (default 30 s): updateAge 10 minutes, maxAge 1 hour, a focus change every 3 minutes, all scaled
 * alike. After signing in, N tabs open; then the focused tab changes, and gets `focus` and
 * `visibilitychange` and reads the session as an app would. Requests are counted at the server
 * from the sign-in on, tab openings included.
 * Also: how long `getSession()` takes in the page when the worker answers from its record; and,
 * in each engine (Chromium, Firefox, WebKit through test/support/engines), `/session` requests
 * per due window with several tabs open and how long a sign-out takes to reach the other tabs.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ensureBuilt } from '../test/e2e/ensure-built.js'
import { startAppServer } from '../test/support/app-server.js'
import { launchBrowser } from '../test/support/browser.js'
import { installedEngines, launchEngine, type EngineName } from '../test/support/engines/index.js'

const hourMs = Number(process.env.BENCH_TAB_SECONDS ?? 30) * 1000
const scale = hourMs / 3_600_000
const updateAgeS = Math.max(1, Math.round(600 * scale))
const maxAgeS = Math.max(updateAgeS * 2, Math.round(3600 * scale))
const focusEveryMs = 180_000 * scale
const tabCounts = [1, 5, 10]

/** The baseline: reads the session once on load and again on every focus, in every tab. */
const focusClient = `<!doctype html><meta charset="utf-8"><title>refetch on focus</title><script>
const read = () => fetch('/auth/session', { credentials: 'include' }).then((r) => r.json())
read()
document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && read())
window.ready = true
</script>`

async function openTabs(browser: Browser, url: string, n: number, worker: boolean, existing?: BrowserContext): Promise<Page[]> {
  const context = existing ?? (await browser.newContext())
  if (!existing) await context.route('**/focus-client.html', (route) => route.fulfill({ body: focusClient, contentType: 'text/html' }))
  const tabs: Page[] = []
  for (let i = 0; i < n; i++) {
    const page = await context.newPage()
    await page.goto(url)
    await page.waitForFunction(() => (window as { ready?: boolean }).ready === true)
    if (worker && i === 0) await page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ?? new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))))
    tabs.push(page)
  }
  return tabs
}

async function signIn(page: Page): Promise<void> {
  const ok = await page.evaluate(async () => {
    const client = (window as any).client
    const r = await client.signIn('credentials', { username: 'tabs', password: 'secret', redirect: false })
    return r?.ok === true
  })
  if (!ok) throw new Error('sign-in failed in the tabs benchmark')
}

/** Signs in, opens n tabs, runs one simulated hour; returns the server's count of GET /session after sign-in. */
async function hour(browser: Browser, kind: 'latchkey' | 'focus', n: number): Promise<number> {
  const server = await startAppServer({ maxAge: maxAgeS, updateAge: updateAgeS })
  try {
    // Sign in through latchkey's page in both cases (with its worker only for latchkey).
    const [signer] = await openTabs(browser, kind === 'latchkey' ? `${server.url}/` : `${server.url}/?nosw`, 1, kind === 'latchkey')
    await signIn(signer)
    const start = server.sessionRequests.length
    const url = kind === 'latchkey' ? `${server.url}/` : `${server.url}/focus-client.html`
    const tabs = await openTabs(browser, url, n, false, signer.context())
    await signer.close()
    const until = Date.now() + hourMs
    for (let i = 0; Date.now() < until; i++) {
      const tab = tabs[i % tabs.length]
      await tab.evaluate(async (isLatchkey) => {
        dispatchEvent(new Event('focus'))
        document.dispatchEvent(new Event('visibilitychange'))
        if (isLatchkey) await (window as any).client.getSession()
      }, kind === 'latchkey')
      await new Promise((r) => setTimeout(r, focusEveryMs))
    }
    const count = server.sessionRequests.length - start
    await tabs[0].context().close()
    return count
  } finally {
    await server.close()
  }
}

/** getSession() from the worker's record, timed in the page. */
async function readLatency(browser: Browser): Promise<{ median: number; p99: number; n: number }> {
  const server = await startAppServer({ maxAge: 3600, updateAge: 600 })
  try {
    const [page] = await openTabs(browser, `${server.url}/`, 1, true)
    await signIn(page)
    const times = await page.evaluate(async () => {
      const client = (window as any).client
      await client.getSession()
      const out: number[] = []
      for (let i = 0; i < 300; i++) {
        const t = performance.now()
        await client.getSession()
        out.push(performance.now() - t)
      }
      return out
    })
    const before = server.sessionRequests.length
    times.sort((a, b) => a - b)
    await page.context().close()
    if (server.sessionRequests.length !== before) throw new Error('getSession() went to the network while the record was fresh')
    return { median: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], n: times.length }
  } finally {
    await server.close()
  }
}

/** The engines' figures: due windows of `windowS` seconds watched for `watchS`, with `n` tabs. */
const engineTabs = 3
const windowS = 2
const watchS = 12

async function inEngine(name: EngineName): Promise<{ perWindow: number; requests: number; slowest: number; spread: number }> {
  const server = await startAppServer({ maxAge: 120, updateAge: windowS })
  const engine = await launchEngine(name)
  try {
    const profile = await engine.newProfile()
    const tabs = []
    for (let i = 0; i < engineTabs; i++) {
      const tab = await profile.newTab(`${server.url}/`)
      await tab.waitFor(() => (window as any).ready === true && (window as any).client.status !== 'loading' && !!navigator.serviceWorker.controller)
      tabs.push(tab)
    }
    const ok = await tabs[0].evaluate(() => (window as any).client.signIn('credentials', { username: 'tabs', password: 'secret', redirect: false }).then((r: any) => r.ok))
    if (!ok) throw new Error(`sign-in failed in ${name}`)
    for (const tab of tabs) await tab.waitFor(() => (window as any).client.status === 'authenticated')
    const start = server.sessionRequests.length
    await new Promise((r) => setTimeout(r, watchS * 1000))
    const requests = server.sessionRequests.length - start
    const clicked = await tabs[0].evaluate(() => {
      const at = Date.now()
      return (window as any).client.signOut({ redirect: false }).then(() => at)
    })
    const arrivals: number[] = []
    for (const tab of tabs.slice(1)) {
      await tab.waitFor(() => (window as any).client.status === 'unauthenticated')
      arrivals.push(await tab.evaluate(() => (window as any).changes.findLast((c: any) => c.email === null).at))
    }
    await profile.close()
    return { perWindow: requests / (watchS / windowS), requests, slowest: Math.max(...arrivals) - clicked, spread: Math.max(...arrivals) - Math.min(...arrivals) }
  } finally {
    await engine.close()
    await server.close()
  }
}

export async function run(): Promise<void> {
  await ensureBuilt()
  const browser = await launchBrowser()
  try {
    console.log(`GET /session in one hour with N tabs, in Chromium (the hour compressed into ${hourMs / 1000} s: updateAge 10 min, a focus change every 3 min; tab openings counted)`)
    console.log(`  ${'tabs'.padStart(4)}  ${'latchkey (worker)'.padStart(18)}  ${'refetch on focus'.padStart(17)}  ratio`)
    for (const n of tabCounts) {
      const ours = await hour(browser, 'latchkey', n)
      const theirs = await hour(browser, 'focus', n)
      const perTab = (c: number) => (c / n).toFixed(1)
      console.log(`  ${String(n).padStart(4)}  ${`${ours} (${perTab(ours)}/tab)`.padStart(18)}  ${`${theirs} (${perTab(theirs)}/tab)`.padStart(17)}  ${(theirs / Math.max(ours, 1)).toFixed(1)}x fewer`)
    }
    const latency = await readLatency(browser)
    console.log(`\ngetSession() in the page, answered by the worker from its record: median ${latency.median.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms over ${latency.n} calls, no request (target < 5 ms)`)
  } finally {
    await browser.close()
  }
  console.log(`\nIn each engine, latchkey's worker, ${engineTabs} tabs: GET /session per due window (updateAge ${windowS} s, ${watchS} s watched), and a sign-out in one tab until the other tabs show it`)
  console.log(`  ${'engine'.padEnd(9)}  ${'per due window'.padStart(14)}  ${'sign-out reaches the others'.padStart(28)}`)
  for (const name of installedEngines('npm run bench -- tabs')) {
    const r = await inEngine(name)
    console.log(`  ${name.padEnd(9)}  ${`${r.perWindow.toFixed(2)} (${r.requests})`.padStart(14)}  ${`${r.slowest} ms (spread ${r.spread} ms)`.padStart(28)}`)
  }
}
