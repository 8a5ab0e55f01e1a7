/**
 * Device-bound sessions through latchkey's worker, in Chromium against the real server: bound
 * cookie renewals in one (compressed) hour for N tabs (target: one per cookie window whatever
 * N), and the time a request that meets a lapsed cookie takes (refresh and replay) against one
 * that does not.
 */
import type { Browser, Page } from 'playwright-core'
import { ensureBuilt } from '../test/e2e/ensure-built.js'
import { startAppServer, type AppServer } from '../test/support/app-server.js'
import { launchBrowser } from '../test/support/browser.js'

const hourMs = Number(process.env.BENCH_TAB_SECONDS ?? 60) * 1000
/** Six cookie windows in the hour, as with the default 10 minutes; at least the 10 s the server allows. */
const cookieMaxAgeS = Math.max(10, Math.round(hourMs / 6 / 1000))
const tabCounts = [1, 5, 10]
/** Renewals: refresh requests carrying a proof (each follows one that asked for the challenge). */
const refreshes = (server: AppServer) => server.requests.get('POST /auth/dbsc/refresh (proof)') ?? 0

async function signedInTab(browser: Browser, server: AppServer): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto(`${server.url}/`)
  await page.waitForFunction(() => (window as { ready?: boolean }).ready === true)
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ?? new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))))
  const ok = await page.evaluate(async () => (await (window as any).client.signIn('credentials', { username: 'bound', password: 'secret', redirect: false }))?.ok === true)
  if (!ok) throw new Error('sign-in failed in the device-bound benchmark')
  // Registered: the server set the short bound cookie.
  for (let i = 0; i < 100 && !(await page.context().cookies()).some((c) => c.name === 'latchkey.bound'); i++) await new Promise((r) => setTimeout(r, 100))
  return page
}

async function hour(browser: Browser, n: number): Promise<number> {
  const server = await startAppServer({ maxAge: 7 * 86400, updateAge: 86400, deviceBound: cookieMaxAgeS })
  try {
    const first = await signedInTab(browser, server)
    for (let i = 1; i < n; i++) await (await first.context().newPage()).goto(`${server.url}/`)
    const start = refreshes(server)
    await new Promise((r) => setTimeout(r, hourMs))
    const count = refreshes(server) - start
    await first.context().close()
    return count
  } finally {
    await server.close()
  }
}

/** Median ms of `fetch('/api/me')` in the page, plain and when each call meets a lapsed cookie. */
async function replayCost(browser: Browser): Promise<{ plain: number; replayed: number }> {
  const server = await startAppServer({ maxAge: 7 * 86400, updateAge: 86400, deviceBound: 600 })
  try {
    const page = await signedInTab(browser, server)
    const call = () => page.evaluate(async () => {
      const t = performance.now()
      const res = await fetch('/api/me')
      if (res.status !== 200) throw new Error(`GET /api/me answered ${res.status}`)
      return performance.now() - t
    })
    const plain: number[] = []
    const replayed: number[] = []
    for (let i = 0; i < 15; i++) plain.push(await call())
    for (let i = 0; i < 15; i++) {
      server.advance(601_000)
      const before = refreshes(server)
      replayed.push(await call())
      if (refreshes(server) === before) throw new Error('the lapsed cookie was not refreshed')
    }
    await page.context().close()
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    return { plain: median(plain), replayed: median(replayed) }
  } finally {
    await server.close()
  }
}

export async function run(): Promise<void> {
  await ensureBuilt()
  const browser = await launchBrowser()
  try {
    const windows = Math.round(hourMs / 1000 / cookieMaxAgeS)
    console.log(`Bound-cookie renewals in one hour with N tabs, in Chromium (the hour compressed into ${hourMs / 1000} s, the cookie living ${cookieMaxAgeS} s: ${windows} windows)`)
    console.log(`  ${'tabs'.padStart(4)}  ${'renewals (proofs sent)'.padStart(30)}  per window`)
    for (const n of tabCounts) {
      const count = await hour(browser, n)
      console.log(`  ${String(n).padStart(4)}  ${String(count).padStart(30)}  ${(count / windows).toFixed(2)}`)
    }
    const { plain, replayed } = await replayCost(browser)
    console.log(`\nGET /api/me in the page: median ${plain.toFixed(1)} ms; meeting a lapsed cookie (challenge, proof, refresh, replay): median ${replayed.toFixed(1)} ms, +${(replayed - plain).toFixed(1)} ms`)
  } finally {
    await browser.close()
  }
}
