/**
 * Profiles GET /session.
 * - In process, the Web path: `node --cpu-prof --import tsx bench/profile-session.ts jwt|database [requests]`.
 * - Over HTTP, the Web handler behind server-speed's harness: `npx tsx bench/profile-session.ts http jwt|database [seconds]`
 *   runs bench/http/target.ts under --cpu-prof, loads it as server-speed does, and prints the profile's folder.
 * - Natively, kernel and OpenSSL included: `npx tsx bench/profile-session.ts perf jwt|database|postgres [web|hono|node] [seconds]`
 *   samples the target with Linux `perf` (CPU clock, so it works in a VM without hardware counters)
 *   while server-speed's load runs, and prints each part's µs per request (perf must be installed).
 */
import { execFileSync, spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryAdapter } from '../src/adapters/memory.js'
import Credentials from '../src/providers/credentials.js'
import { Latchkey } from '../src/server/index.js'
import { load, start } from './server-speed.js'

/** Parts of a request named by a frame on their call chains (perf's `--parent` regex). */
const chains: Array<[string, string]> = [
  ['the kernel waking the reader of a socket written to (the load generator, PostgreSQL)', 'sock_def_readable'],
  ['socket writes in the kernel, wake-ups included', 'do_writev|ksys_write'],
  ["node:crypto's native side (OpenSSL and its allocations)", 'node::crypto::'],
  ['JSON.parse and JSON.stringify', 'Builtin_JsonParse|Builtins_JsonStringify|JsonStringifier'],
  ['garbage collection', 'Heap::CollectGarbage|ScavengerCollector::CollectGarbage|ArrayBufferSweeper'],
]

if (process.argv[2] === 'http') await overHttp((process.argv[3] ?? 'jwt') as 'jwt' | 'database', Number(process.argv[4] ?? 5))
else if (process.argv[2] === 'perf') await withPerf((process.argv[3] ?? 'jwt') as 'jwt' | 'database' | 'postgres', (process.argv[4] ?? 'hono') as 'web' | 'hono' | 'node', Number(process.argv[5] ?? 4))
else await inProcess((process.argv[2] ?? 'jwt') as 'jwt' | 'database', Number(process.argv[3] ?? 20000))

async function inProcess(strategy: 'jwt' | 'database', n: number) {
  const handler = Latchkey({
    secret: 'bench-secret-0123456789-abcdefghij',
    adapter: strategy === 'database' ? MemoryAdapter() : undefined,
    session: { strategy },
    providers: [Credentials({ authorize: () => ({ id: 'u1', email: 'u1@example.com', name: 'U' }) })],
  })
  const csrf = await handler(new Request('http://localhost/auth/csrf'))
  const csrfCookie = csrf.headers.getSetCookie()[0].split(';')[0]
  const { csrfToken } = await csrf.json()
  const signin = await handler(new Request('http://localhost/auth/callback/credentials', { method: 'POST', headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrfToken }) }))
  const cookie = signin.headers.getSetCookie().find((c) => c.includes('session-token'))!.split(';')[0]
  const t = performance.now()
  for (let i = 0; i < n; i++) await (await handler(new Request('http://localhost/auth/session', { headers: { cookie } }))).text()
  console.log(strategy, Math.round(n / ((performance.now() - t) / 1000)), 'req/s')
}

async function overHttp(strategy: 'jwt' | 'database', seconds: number) {
  const dir = join(tmpdir(), 'latchkey-profiles')
  const target = await start('latchkey', strategy, 'web', ['--cpu-prof', `--cpu-prof-dir=${dir}`])
  const result = await load(target, true, seconds)
  console.log(strategy, Math.round(result.rps), `req/s over HTTP, users rotating; profile in ${dir}`)
  await target.stop()
}

/**
 * `perf record` on the target while it is loaded; each sample's share times the target's CPU per
 * request gives µs per request. JIT frames are named through `--perf-basic-prof`.
 */
async function withPerf(strategy: 'jwt' | 'database' | 'postgres', mode: 'web' | 'hono' | 'node', seconds: number) {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' })
  } catch {
    throw new Error('`perf` was not found: install it (Debian: apt-get install linux-perf) to profile natively')
  }
  const data = join(tmpdir(), `latchkey-perf-${strategy}-${mode}.data`)
  const target = await start('latchkey', strategy, mode, ['--perf-basic-prof'])
  try {
    await load(target, true, 2)
    const args = ['record', '-q', '-e', 'cpu-clock', '-F', '4999', '-g', '-p', String(target.child.pid), '-o', data, '--', 'sleep', String(seconds)]
    const recorder = spawn('perf', args, { stdio: 'inherit' })
    const recorded = new Promise<number | null>((resolve, reject) => recorder.once('error', reject).once('exit', resolve))
    // The load outlasts the recording by a second, so every sample is taken under load.
    const result = await load(target, true, seconds + 1)
    if ((await recorded) !== 0) throw new Error('perf record failed (see above)')
    const cpu = result.user + result.system
    console.log(`${strategy} ${mode}: ${Math.round(result.rps)} req/s under perf, the target's CPU ${cpu.toFixed(1)} µs a request; µs a request by part:`)
    // perf's report as "share%|name" lines, one per entry, the largest first.
    const entries = (...how: string[]) =>
      execFileSync('perf', ['report', '-i', data, '--no-children', '-g', 'none', '--stdio', '-t', '|', ...how], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
        .split('\n')
        .filter((line) => /^\s*[\d.]+%/.test(line))
        .map((line) => ({ us: (parseFloat(line) / 100) * cpu, name: line.slice(line.indexOf('|') + 1).trim().replace(/ tid \d+$/, '') }))
    const row = (us: number, name: string) => `  ${us.toFixed(2).padStart(6)}  ${name}`
    const report = (sort: string, top: number) => entries('--sort', sort).slice(0, top).map((e) => row(e.us, e.name)).join('\n')
    console.log(report('dso', 6))
    console.log('the samples whose call chain passes through:')
    for (const [what, frames] of chains) {
      const under = entries('--sort', 'parent', '--parent', frames).filter((e) => e.name !== '[other]')
      console.log(row(under.reduce((n, e) => n + e.us, 0), what))
    }
    console.log('the top symbols:')
    console.log(report('sym', 25))
  } finally {
    await target.stop()
  }
}
