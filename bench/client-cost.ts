/**
 * `npm run bench -- client-cost`: what a signed-in user costs the server, and how fast a page
 * knows its user, for latchkey (with its worker, and with the page engine alone) and the clients
 * an app would pick instead: next-auth/react 5 against latchkey's server (the Auth.js wire) and
 * better-auth's client against a better-auth server on its memory adapter. Headless Chromium,
 * real servers on this machine, the same harness for every client (bench/client-cost/).
 *
 * 1. One user's hour with T tabs (hour.ts), compressed into `BENCH_CLIENT_HOUR_SECONDS` (default
 *    30) with the session's updateAge scaled alike (6 minutes: ten due windows), counted at the
 *    server: session requests and adapter reads. The run is the hour, so the counts are per
 *    user-hour at the real updateAge.
 * 2. Time to a known session after a reload with 150 ms of round trip emulated (reload-time.ts),
 *    median and p95 over `BENCH_CLIENT_RELOADS` (default 20) reloads.
 * 3. Each page's session JavaScript, min+gzip (bundles.ts).
 *
 * `BENCH_CLIENT_TABS=1,5` runs fewer tab counts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { ensureBuilt } from '../test/e2e/ensure-built.js'
import { launchBrowser } from '../test/support/browser.js'
import { buildPages, sessionBytes, type SessionBytes } from './client-cost/bundles.js'
import { clients, type Client } from './client-cost/clients.js'
import { realUpdateAge, runHour, simulatedHour, type HourResult } from './client-cost/hour.js'
import { reloadTimes } from './client-cost/reload-time.js'

const hourSeconds = Number(process.env.BENCH_CLIENT_HOUR_SECONDS ?? 30)
const tabCounts = (process.env.BENCH_CLIENT_TABS ?? '1,5,20').split(',').filter(Boolean).map(Number)
const reloads = Number(process.env.BENCH_CLIENT_RELOADS ?? 20)
const rtt = 150
const windows = simulatedHour / realUpdateAge

const root = join(import.meta.dirname, '..')
const version = (pkg: string) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version as string
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]
}

/** What the page of each client loads for the session, and (latchkey) what loads beside it. */
function bytesCell(client: Client, bytes: SessionBytes, worker: number): string {
  if (client.page !== 'latchkey') return kb(bytes.eager)
  const chunk = (name: string) => Object.entries(bytes.lazy).find(([file]) => file.startsWith(name))?.[1] ?? 0
  return client.worker ? `${kb(bytes.eager + chunk('register-worker'))} + worker ${kb(worker)}` : kb(bytes.eager + chunk('session-engine'))
}

export async function run(): Promise<void> {
  await ensureBuilt()
  const bundles = await buildPages()
  const sizes = new Map<string, SessionBytes>()
  for (const client of clients) if (!sizes.has(client.page)) sizes.set(client.page, await sessionBytes(client.page))
  const workerBytes = gzipSync(readFileSync(join(root, 'dist/latchkey-sw.js')), { level: 9 }).length

  const browser = await launchBrowser()
  const hours = new Map<string, Map<number, HourResult>>()
  const times = new Map<string, { median: number; p95: number; pageMedian: number; pageP95: number }>()
  try {
    console.log(`One user-hour with T tabs: updateAge ${realUpdateAge / 60} min (${windows} due windows), the hour compressed into ${hourSeconds} s`)
    for (const tabs of tabCounts) {
      for (const client of clients) {
        const r = await runHour(browser, bundles, client, tabs, hourSeconds)
        if (!hours.has(client.name)) hours.set(client.name, new Map())
        hours.get(client.name)!.set(tabs, r)
        console.log(`  T=${tabs} ${client.name}: ${r.sessionRequests} session requests, ${r.adapterReads} adapter reads (${r.events.focus} focus, ${r.events.reload} reloads, ${r.events.navigate} navigations; took ${r.took.toFixed(1)} s)`)
      }
    }
    console.log(`\nTime to a known session after a reload, ${rtt} ms RTT emulated, ${reloads} reloads`)
    for (const client of clients) {
      const t = await reloadTimes(browser, bundles, client, reloads, rtt)
      const row = { median: quantile(t.fromStart, 0.5), p95: quantile(t.fromStart, 0.95), pageMedian: quantile(t.fromPage, 0.5), pageP95: quantile(t.fromPage, 0.95) }
      times.set(client.name, row)
      console.log(`  ${client.name}: from navigation start median ${row.median.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms; from the page's first script median ${row.pageMedian.toFixed(1)} ms, p95 ${row.pageP95.toFixed(1)} ms`)
    }
  } finally {
    await browser.close()
  }

  // The table BENCHMARKS.md carries.
  const head = ['client', ...tabCounts.map((t) => `T=${t}: session requests / adapter reads per user-hour`), 'known after reload, from navigation start: median / p95', 'from the page\'s first script: median / p95', 'session JS (min+gzip)']
  console.log(`\n| ${head.join(' | ')} |`)
  console.log(`|${head.map(() => '---').join('|')}|`)
  for (const client of clients) {
    const h = hours.get(client.name)!
    const t = times.get(client.name)!
    const cells = [
      client.name,
      ...tabCounts.map((n) => `${h.get(n)!.sessionRequests} / ${h.get(n)!.adapterReads}`),
      `${t.median.toFixed(0)} / ${t.p95.toFixed(0)} ms`,
      `${t.pageMedian.toFixed(1)} / ${t.pageP95.toFixed(1)} ms`,
      bytesCell(client, sizes.get(client.page)!, workerBytes),
    ]
    console.log(`| ${cells.join(' | ')} |`)
  }
  console.log(`\nnext-auth ${version('next-auth-5')}, better-auth ${version('better-auth')}, React ${version('react')} (external to the session JS)`)

  // The targets.
  const ours = hours.get('latchkey, worker')!
  const perWindow = Math.max(...tabCounts.map((n) => ours.get(n)!.sessionRequests / windows))
  console.log(`\ntargets:`)
  if (tabCounts.length) console.log(`  latchkey with its worker, at most one session request per due window for every T: ${perWindow.toFixed(2)} at most: ${perWindow <= 1 ? 'met' : 'MISSED'}`)
  const peers = clients.filter((c) => c.page !== 'latchkey')
  if (tabCounts.includes(5)) {
    const best = Math.min(...peers.map((c) => hours.get(c.name)!.get(5)!.sessionRequests))
    const ratio = best / Math.max(1, ours.get(5)!.sessionRequests)
    console.log(`  at T=5, the best peer over latchkey with its worker: ${ratio.toFixed(1)}x (target 10x): ${ratio >= 10 ? 'met' : 'MISSED'}`)
  }
  const mine = times.get('latchkey, worker')!
  const fastestPeer = Math.min(...peers.map((c) => times.get(c.name)!.pageMedian))
  console.log(`  known after a reload, latchkey with its worker, from the page's first script: median ${mine.pageMedian.toFixed(1)} ms (target 20 ms): ${mine.pageMedian <= 20 ? 'met' : 'MISSED'}; the fastest peer ${(fastestPeer / mine.pageMedian).toFixed(1)}x slower (target 5x): ${fastestPeer >= 5 * mine.pageMedian ? 'met' : 'MISSED'}`)
  const fastestFromStart = Math.min(...peers.map((c) => times.get(c.name)!.median))
  console.log(`  from navigation start (the document's own round trip included, the same for every client): ${mine.median.toFixed(1)} ms against the fastest peer's ${fastestFromStart.toFixed(1)} ms (${(fastestFromStart / mine.median).toFixed(1)}x)`)
}
