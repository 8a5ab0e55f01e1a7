/**
 * Many instances (issue 46): what a team sizes machines by. The cluster of
 * test/integration/cluster.test.ts (test/support/cluster.ts), on ports of its own: latchkey
 * processes behind haproxy (its readiness check), a PostgreSQL 15 primary with a streaming replica
 * behind one address, rate limits in Redis, `trustProxy: 1`. The same mixed load of many users
 * (each from its own loopback address: session reads, CSRF fetches, sign-ins by credentials and
 * by email code, sign-outs) runs through haproxy over 1, 2 and 3 processes: throughput, p50 and
 * p99, and the CPU each part spent per request (/proc/<pid>/stat's utime + stime; PostgreSQL's
 * postmaster with its children, those it reaped included). Then over 3, the faults of the suite,
 * one after the other: how long requests failed (5xx or no answer) in each.
 *
 *   npm run bench -- cluster      (CLUSTER_SECONDS per measurement, default 8; CLUSTER_USERS, default 300;
 *                                  CLUSTER_CONCURRENCY requests in flight, default 16)
 * Needs root, PostgreSQL 15's server binaries, redis-server and /usr/sbin/haproxy; no DATABASE_URL.
 */
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import {
  cpuOf,
  createUsers,
  failed,
  faultSummary,
  injectFaults,
  MixedLoad,
  postgresCpu,
  startCluster,
  ticks,
  type Cluster,
  type LoadAnswer,
} from '../test/support/cluster.js'
import { percentile } from './soak.js'

const seconds = Number(process.env.CLUSTER_SECONDS ?? 8)
const userCount = Number(process.env.CLUSTER_USERS ?? 300)
const concurrency = Number(process.env.CLUSTER_CONCURRENCY ?? 16)
const warmUpMs = 1500

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-')

/** The machine's CPU seconds so far, busy and all (/proc/stat's first line). */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
  const total = fields.reduce((sum, n) => sum + n, 0)
  // idle and iowait are the 4th and 5th.
  return { busy: (total - fields[3]! - fields[4]!) / ticks, total: total / ticks }
}

/** CPU seconds so far of each part. */
async function cpuNow(cluster: Cluster, processes: number) {
  const own = process.cpuUsage()
  return {
    latchkey: cluster.members.slice(0, processes).reduce((sum, m) => sum + cpuOf(m.server.child.pid), 0),
    postgres: postgresCpu(await cluster.current().pid()),
    replica: postgresCpu(await cluster.replica.pid()),
    haproxy: cpuOf(cluster.balancer.child.pid),
    forwarder: cpuOf(cluster.forwarder.child.pid),
    load: (own.user + own.system) / 1e6,
  }
}
type Cpu = Awaited<ReturnType<typeof cpuNow>>

interface Measured {
  processes: number
  requests: number
  /** The share of sign-ins (the last request of each) among the requests. */
  signIns: number
  /** Connections the latchkey processes held on the primary, at the row's end (each pool's max is 10). */
  connections: number
  /** The machine's cores busy over the row, and the share of them the cluster's parts (and the load) used. */
  busy: number
  share: number
  rate: number
  p50: number
  p99: number
  failed: number
  /** CPU ms per request, per part. */
  perRequest: Record<keyof Cpu, number>
}

async function measure(cluster: Cluster, processes: number): Promise<Measured> {
  await cluster.balance(processes)
  // Each row has users of its own, all signed out at first, and the limits' counts at zero: the same mix in each.
  await cluster.resetLimits()
  const users = createUsers(userCount, processes * 10_000)
  const load = new MixedLoad(cluster, users, concurrency)
  await sleep(warmUpMs)
  const [from, before, machineBefore] = [Date.now(), await cpuNow(cluster, processes), machineCpu()]
  await sleep(seconds * 1000)
  const [to, after, machineAfter] = [Date.now(), await cpuNow(cluster, processes), machineCpu()]
  const [{ count }] = (await cluster.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) as [{ count: string }]
  await load.stop()
  if (load.problems.length) throw new Error(`cluster bench: the load broke a rule over ${processes} processes:\n${load.problems.slice(0, 10).join('\n')}`)
  const counted = load.answers.filter((a: LoadAnswer) => a.end >= from && a.end < to)
  const latencies = counted.map((a) => a.end - a.at).sort((x, y) => x - y)
  const perRequest = Object.fromEntries(Object.keys(before).map((part) => [part, ((after[part as keyof Cpu] - before[part as keyof Cpu]) * 1000) / counted.length])) as Measured['perRequest']
  return {
    processes,
    requests: counted.length,
    signIns: counted.filter((a) => a.kind === 'credentials sign-in' || a.kind === 'email code').length / counted.length,
    connections: Number(count),
    busy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    share: Object.values(perRequest).reduce((sum, ms) => sum + ms, 0) * counted.length / 1000 / ((machineAfter.total - machineBefore.total) || 1),
    rate: counted.length / ((to - from) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: counted.filter(failed).length,
    perRequest,
  }
}

export async function run(): Promise<void> {
  const started = Date.now()
  const cluster = await startCluster({ name: 'lkbench', pgPort: 5462, redisPort: 6393 })
  try {
    const rows: Measured[] = []
    for (const processes of [1, 2, 3]) rows.push(await measure(cluster, processes))

    await cluster.resetLimits()
    const load = new MixedLoad(cluster, createUsers(userCount, 40_000), concurrency)
    let windows: Awaited<ReturnType<typeof injectFaults>>
    try {
      windows = await injectFaults(cluster)
    } finally {
      await load.stop()
    }
    const faults = faultSummary(windows, load.answers)
    const outside = load.answers.filter(failed).filter((a) => !windows.some((w) => a.at <= w.end + 1000 && a.end >= w.start))

    const lines: string[] = []
    lines.push(
      `cluster: ${userCount} users (each its own client address), ${concurrency} requests in flight, through haproxy (readiness checks every 250 ms); PostgreSQL 15 primary + streaming replica, rate limits in Redis`,
    )
    lines.push(`  mixed load: signed in, 70 % session reads, 15 % CSRF fetches, 15 % sign-outs; signed out, a sign-in (half by credentials, half by email code)`)
    lines.push(`  machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}); ${seconds} s per row after ${warmUpMs / 1000} s warm-up, fresh users in each`)
    lines.push('')
    const parts = ['latchkey', 'PostgreSQL', 'replica', 'haproxy', 'forwarder', 'load']
    lines.push(`  ${''.padEnd(43)}${'sign-ins'.padStart(10)}${'PG conn-'.padStart(10)}${'CPU busy'.padStart(10)}${'of it'.padStart(8)}   CPU ms per request`)
    lines.push(`  ${'processes'.padEnd(11)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'failed'.padStart(8)}${'of all'.padStart(10)}${'ections'.padStart(10)}${'machine'.padStart(10)}${'ours'.padStart(8)}   ${parts.map((h) => h.padStart(11)).join('')}`)
    for (const row of rows) {
      const cpu = row.perRequest
      lines.push(
        `  ${String(row.processes).padEnd(11)}${fixed(row.rate, 0).padStart(8)}${fixed(row.p50, 1).padStart(8)}${fixed(row.p99, 1).padStart(8)}${String(row.failed).padStart(8)}${`${fixed(row.signIns * 100, 0)} %`.padStart(10)}${String(row.connections).padStart(10)}${`${fixed(row.busy * 100, 0)} %`.padStart(10)}${`${fixed(row.share * 100, 0)} %`.padStart(8)}   ${[cpu.latchkey, cpu.postgres, cpu.replica, cpu.haproxy, cpu.forwarder, cpu.load].map((n) => fixed(n, 2).padStart(11)).join('')}`,
      )
    }
    lines.push('  (CPU busy: all the machine\'s cores, and the share of them the parts on the right used; latchkey: the sum over the processes in rotation;')
    lines.push('   PostgreSQL: the primary, postmaster and backends; replica: its WAL replay; forwarder: the TCP forwarder that stands for the')
    lines.push('   primary\'s virtual IP; load: this process, the simulated browsers)')
    lines.push('')
    const busiest = Math.min(...rows.map((row) => row.busy))
    lines.push(
      `  On this ${cpus().length}-core machine throughput does not scale with processes: it is CPU-bound (the cores were at least ${fixed(busiest * 100, 0)} % busy in every row), and the processes,`,
    )
    lines.push('  PostgreSQL, haproxy and the load generator share the same cores. Where a row with more processes does more, it took a larger share of a machine')
    lines.push(`  other work was using too (the "ours" column; the load average was ${loadavg().map((n) => fixed(n, 1)).join(' ')} at the end).`)
    lines.push('  What a team sizes machines by is the CPU per request: cores needed ≈ requests per second × CPU ms per request / 1000, for each part.')
    lines.push('')
    lines.push(`  faults, over 3 processes, one after the other with 1 s of plain load between (requests failed = 5xx or no answer):`)
    lines.push(`  ${'fault'.padEnd(20)}${'window ms'.padStart(10)}${'requests'.padStart(10)}${'failed'.padStart(8)}${'failing ms'.padStart(12)}   what happened`)
    for (const { window, requests, failed: bad, failedFor } of faults) {
      lines.push(`  ${window.name.padEnd(20)}${String(window.end - window.start).padStart(10)}${String(requests).padStart(10)}${String(bad).padStart(8)}${String(failedFor).padStart(12)}   ${window.note}`)
    }
    lines.push(`  (window: from the fault until every process answered readiness and a sign-in again; failing: from the first failed request sent to the last answered)`)
    const slowest = Math.max(...load.answers.map((a) => a.end - a.at))
    lines.push(`  outside every window: ${outside.length} failed; slowest request ${slowest} ms; the load's rules broken: ${load.problems.length}; wall time ${fixed((Date.now() - started) / 1000)} s`)
    for (const problem of load.problems.slice(0, 5)) lines.push(`    ! ${problem}`)
    console.log(lines.join('\n'))
    if (outside.length || load.problems.length || slowest > 5000) process.exitCode = 1
  } finally {
    await cluster.stop()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run()
