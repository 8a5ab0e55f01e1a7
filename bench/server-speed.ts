/**
 * GET /session, latchkey against @auth/core, side by side in one run, loaded as production is:
 * BENCH_USERS distinct signed-in users (default 10,000), the next user's cookie on every request,
 * so no per-cookie cache helps. Columns: latchkey's Web handler and Auth.js behind two Web
 * harnesses, each the same for both: a plain node:http-to-Request one (bench/http/web-harness.ts:
 * a full Request in, the Response's body read back as a stream) and @hono/node-server's
 * `getRequestListener`, with which a Web handler is commonly deployed on Node; then latchkey's node
 * binding (`toNodeHandler`). Each harness alone, answering a fixed session JSON, is its ceiling;
 * each library's own cost is its time per request above that ceiling. Rows: JWT, database on
 * the memory store, and database on PostgreSQL (latchkey's SQL adapter against @auth/pg-adapter, same server, same
 * data; needs DATABASE_URL). One cookie repeated is a labelled row of its own. Every response is
 * checked: status 200 and the email of the user whose cookie was sent.
 *
 *   npm run bench -- server-speed      (BENCH_SECONDS per run, default 5; BENCH_RUNS rounds, default 1: the cells of one
 *                                       comparison loaded in turns, each cell its median run, each ratio the median of the rounds';
 *                                       BENCH_MEMORY_SECONDS, default 60)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { jweOpen } from './jwe-open.js'

type Library = 'latchkey' | 'authjs' | 'ceiling'
type Strategy = 'jwt' | 'database' | 'postgres'
type Mode = 'web' | 'hono' | 'node'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 60)
const users = Number(process.env.BENCH_USERS ?? 10_000)
const connections = 10

interface Target {
  child: ChildProcess
  origin: string
  cookieName: string
  cookies: string[]
  next(prefix: string): Promise<string>
  stop(): Promise<void>
}

/** Starts a target process; `execArgv`: more node flags (a profiler's). */
export async function start(library: Library, strategy: Strategy, mode: Mode, execArgv: string[] = []): Promise<Target> {
  const child = spawn(process.execPath, [...execArgv, '--expose-gc', '--import', 'tsx', 'bench/http/target.ts', library, strategy, mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_USERS: String(users) },
  })
  const lines = createInterface({ input: child.stdout! })
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = []
  lines.on('line', (line) => {
    const i = waiting.findIndex((w) => line.startsWith(w.prefix))
    if (i >= 0) waiting.splice(i, 1)[0].resolve(line)
  })
  const next = (prefix: string) => new Promise<string>((resolve) => waiting.push({ prefix, resolve }))
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${library} ${strategy} ${mode} exited (${code}) before it was ready`))))
  const ready = await Promise.race([next('READY '), exited])
  const [, port, json] = /^READY (\d+) (.*)$/.exec(ready)!
  const { cookieName, file } = JSON.parse(json) as { cookieName: string; file: string }
  const cookies = JSON.parse(readFileSync(file, 'utf8')) as string[]
  rmSync(file)
  exited.catch(() => {})
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    cookieName,
    cookies,
    next,
    stop: async () => {
      child.stdin!.end()
      await new Promise((r) => child.once('exit', r))
    },
  }
}

interface Figures {
  rps: number
  p50: number
  p99: number
  wrong: number
  total: number
  setCookies: number
  /** The target process's CPU time per request over the run, µs: in its own code and in the kernel for it. */
  user: number
  system: number
}

/**
 * autocannon against GET /session; `rotate`: the next user's cookie on each request (else user
 * 0's on all). Each answer must be 200 with that user's email.
 */
export async function load(t: Target, rotate: boolean, duration = seconds): Promise<Figures> {
  let turn = 0
  let wrong = 0
  let setCookies = 0
  const [user0, system0] = await cpuOf(t)
  const result = await autocannon({
    url: `${t.origin}/auth/session`,
    connections,
    duration,
    requests: [
      {
        method: 'GET',
        setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => {
          const i = rotate ? turn++ % t.cookies.length : 0
          // The ceiling answers user 0 whatever it is sent.
          context.expect = `"email":"u${t.cookieName === 'ceiling' ? 0 : i}@bench.example"`
          return { ...request, headers: { cookie: `${t.cookieName}=${t.cookies[i]}` } }
        },
        onResponse: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, unknown>) => {
          if (status !== 200 || !body.includes(context.expect as string)) wrong++
          if (headers['set-cookie']) setCookies++
        },
      },
    ],
  } as unknown as autocannon.Options)
  const [user1, system1] = await cpuOf(t)
  const total = result.requests.total || 1
  return {
    user: (user1 - user0) / total,
    system: (system1 - system0) / total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    wrong: wrong + result.errors + result.timeouts,
    total: result.requests.total,
    setCookies,
  }
}

/** Runs per cell; the cell shows the run with the median requests/s, its wrong answers count every run's. */
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1))

/** The target's CPU time so far, µs: user, system. */
async function cpuOf(t: Target): Promise<[number, number]> {
  t.child.stdin!.write('cpu\n')
  const [, user, system] = (await t.next('CPU ')).split(' ').map(Number)
  return [user, system]
}

/** The cell of several runs: the run with the median requests/s, with wrong answers and totals over every run. */
function median(all: Figures[]): Figures {
  const middle = [...all].sort((a, b) => a.rps - b.rps)[Math.floor(all.length / 2)]
  const sum = (pick: (f: Figures) => number) => all.reduce((n, f) => n + pick(f), 0)
  return { ...middle, wrong: sum((f) => f.wrong), total: sum((f) => f.total), setCookies: sum((f) => f.setCookies) }
}

/**
 * Targets measured in turns: all started and warmed up, then `runs` rounds in which each is loaded
 * once, the order reversed every other round, so that a slow spell on this machine falls on every
 * cell of a comparison and not on one. `rounds[i][k]`: target k's figures in round i.
 */
async function inTurns(cells: Array<[Library, Strategy, Mode]>, rotate = true): Promise<{ cells: Figures[]; rounds: Figures[][] }> {
  const targets: Target[] = []
  try {
    for (const [library, strategy, mode] of cells) targets.push(await start(library, strategy, mode))
    for (const t of targets) await load(t, rotate, 2) // warm-up
    const rounds: Figures[][] = []
    for (let i = 0; i < runs; i++) {
      const order = targets.map((_, k) => k)
      if (i % 2) order.reverse()
      const round: Figures[] = []
      for (const k of order) round[k] = await load(targets[k], rotate)
      rounds.push(round)
    }
    return { cells: targets.map((_, k) => median(rounds.map((r) => r[k]))), rounds }
  } finally {
    for (const t of targets) await t.stop()
  }
}

/** A ratio over the rounds: each round's a over b, the median and the range. */
interface Ratio {
  median: number
  low: number
  high: number
}

function ratioOf(rounds: Figures[][], a: number, b: number): Ratio {
  const each = rounds.map((r) => r[a].rps / r[b].rps).sort((x, y) => x - y)
  return { median: each[Math.floor(each.length / 2)], low: each[0], high: each[each.length - 1] }
}

/** Heap of latchkey's Web handler (JWT, rotating users) after warm-up and after `memorySeconds` more at full load. */
async function memory() {
  const t = await start('latchkey', 'jwt', 'web')
  try {
    await load(t, true, 3)
    t.child.stdin!.write('heap\n')
    const before = Number((await t.next('HEAP ')).slice(5))
    const run = await load(t, true, memorySeconds)
    t.child.stdin!.write('heap\n')
    const after = Number((await t.next('HEAP ')).slice(5))
    return { before, after, growth: after - before, requests: run.total, wrong: run.wrong }
  } finally {
    await t.stop()
  }
}

const pad = (s: string | number, n: number) => String(s).padStart(n)
const perRequest = (f: Figures) => 1e6 / f.rps
const fmt = (f: Figures) => `${pad(Math.round(f.rps), 7)} (${pad(perRequest(f).toFixed(0), 4)} µs)`
const times = (r: Ratio) => pad(r.median.toFixed(2) + 'x', 6)
const range = (r: Ratio) => `${r.median.toFixed(2)}x (${r.low.toFixed(2)}–${r.high.toFixed(2)})`
const own = (f: Figures, ceiling: Figures) => pad((perRequest(f) - perRequest(ceiling)).toFixed(1), 6)

interface Row {
  name: string
  web: Figures
  authjs: Figures
  hono: Figures
  authjsHono: Figures
  node: Figures
  /** latchkey over Auth.js, round by round: plain harness, Hono, node binding over Auth.js plain. */
  ratio: { web: Ratio; hono: Ratio; node: Ratio }
}

export async function run(): Promise<void> {
  const version = (p: string) => JSON.parse(readFileSync(`node_modules/${p}/package.json`, 'utf8')).version
  const withPg = !!process.env.DATABASE_URL
  console.log(
    `GET /session, latchkey vs @auth/core ${version('@auth/core')}${withPg ? ` and @auth/pg-adapter ${version('@auth/pg-adapter')}` : ''}: ${users.toLocaleString('en')} distinct users (the next one's cookie on each request), ` +
      `${connections} connections, keep-alive, ${seconds} s per run after 2 s of warm-up, ${runs === 1 ? 'one run' : `${runs} rounds, the cells of a comparison loaded in turns, the median shown`} per cell, @hono/node-server ${version('@hono/node-server')}, node ${process.versions.node}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the start`,
  )
  if (!withPg) console.log('*** DATABASE_URL is not set: the PostgreSQL row does NOT run ***')
  console.log(await jweOpen(users))
  const ceilings = await inTurns([['ceiling', 'jwt', 'web'], ['ceiling', 'jwt', 'hono'], ['ceiling', 'jwt', 'node']])
  const ceiling = { web: ceilings.cells[0], hono: ceilings.cells[1], node: ceilings.cells[2] }
  const strategies: Strategy[] = withPg ? ['jwt', 'database', 'postgres'] : ['jwt', 'database']
  const names: Record<Strategy, string> = { jwt: 'JWT', database: 'database (memory store)', postgres: 'database (PostgreSQL)' }
  // Each comparison in turns: latchkey plain, Auth.js plain and latchkey's node binding; then both behind Hono.
  const row = async (name: string, strategy: Strategy, rotate: boolean): Promise<Row> => {
    const plain = await inTurns([['latchkey', strategy, 'web'], ['authjs', strategy, 'web'], ['latchkey', strategy, 'node']], rotate)
    const hono = await inTurns([['latchkey', strategy, 'hono'], ['authjs', strategy, 'hono']], rotate)
    return {
      name,
      web: plain.cells[0],
      authjs: plain.cells[1],
      node: plain.cells[2],
      hono: hono.cells[0],
      authjsHono: hono.cells[1],
      ratio: { web: ratioOf(plain.rounds, 0, 1), hono: ratioOf(hono.rounds, 0, 1), node: ratioOf(plain.rounds, 2, 1) },
    }
  }
  const rows: Row[] = []
  for (const strategy of strategies) rows.push(await row(names[strategy], strategy, true))
  const single: Row[] = []
  for (const strategy of ['jwt', 'database'] as Strategy[]) single.push(await row(`${names[strategy]}, ONE cookie repeated`, strategy, false))

  const cell = (f: Figures, c: Figures) => `${fmt(f)} ${own(f, c)}`
  const blank = pad('', 16 + 7)
  console.log(`\nrequests/s (µs per request) and own µs above the harness alone; ratio: latchkey over Auth.js in the same harness, the median of the rounds' ratios; node ratio: over Auth.js in the plain harness\n`)
  console.log(`${'sessions'.padEnd(40)} ${pad('latchkey plain', 16)} ${pad('own', 6)} ${pad('Auth.js plain', 16)} ${pad('own', 6)} ${pad('ratio', 6)} | ${pad('latchkey Hono', 16)} ${pad('own', 6)} ${pad('Auth.js Hono', 16)} ${pad('own', 6)} ${pad('ratio', 6)} | ${pad('latchkey node', 16)} ${pad('own', 6)} ${pad('ratio', 6)}   wrong`)
  console.log(`${'harness alone (fixed JSON)'.padEnd(40)} ${fmt(ceiling.web)} ${pad('', 6)} ${blank} ${pad('', 6)} | ${fmt(ceiling.hono)} ${pad('', 6)} ${blank} ${pad('', 6)} | ${fmt(ceiling.node)}`)
  for (const r of [...rows, ...single]) {
    const all = [r.web, r.authjs, r.hono, r.authjsHono, r.node]
    console.log(
      `${r.name.padEnd(40)} ${cell(r.web, ceiling.web)} ${cell(r.authjs, ceiling.web)} ${times(r.ratio.web)} | ${cell(r.hono, ceiling.hono)} ${cell(r.authjsHono, ceiling.hono)} ${times(r.ratio.hono)} | ${cell(r.node, ceiling.node)} ${times(r.ratio.node)}   ` +
        `${all.reduce((n, f) => n + f.wrong, 0)}/${all.reduce((n, f) => n + f.total, 0)}`,
    )
  }
  if (runs > 1) {
    console.log(`\nratios over ${runs} rounds, median (lowest–highest):`)
    for (const r of [...rows, ...single]) console.log(`  ${r.name.padEnd(44)} plain ${range(r.ratio.web)}, Hono ${range(r.ratio.hono)}, node ${range(r.ratio.node)}`)
  }
  console.log(`\nset-cookie answers (re-issued cookies): latchkey only when the session is due, Auth.js on every read:`)
  for (const r of rows) console.log(`  ${r.name.padEnd(38)} latchkey ${r.web.setCookies}/${r.web.total}, Auth.js ${r.authjs.setCookies}/${r.authjs.total}`)
  const cpu = (f: Figures) => `${f.user.toFixed(1)}+${f.system.toFixed(1)}`
  // Own CPU: the cell's CPU per request above its harness alone's. Where the harness alone outruns
  // the load generator (Hono, node), its wall time per request is the generator's, and own µs from
  // requests/s understate a library's cost; its CPU does not.
  const ownCpu = (f: Figures, c: Figures) => `${cpu(f)} (own ${(f.user + f.system - c.user - c.system).toFixed(1)})`
  console.log(`\nthe target's CPU per request, µs, user+system, and own CPU above the harness alone's (harness alone: plain ${cpu(ceiling.web)}, Hono ${cpu(ceiling.hono)}, node ${cpu(ceiling.node)}):`)
  for (const r of [...rows, ...single]) {
    console.log(
      `  ${r.name.padEnd(44)} latchkey plain ${ownCpu(r.web, ceiling.web)}, Auth.js plain ${ownCpu(r.authjs, ceiling.web)}; ` +
        `latchkey Hono ${ownCpu(r.hono, ceiling.hono)}, Auth.js Hono ${ownCpu(r.authjsHono, ceiling.hono)}; latchkey node ${ownCpu(r.node, ceiling.node)}`,
    )
  }
  console.log(`p50/p99 latency, ms: ` + rows.map((r) => `${r.name}: latchkey ${r.web.p50}/${r.web.p99}, Auth.js ${r.authjs.p50}/${r.authjs.p99}, node ${r.node.p50}/${r.node.p99}`).join('; '))
  const all = [ceiling.web, ceiling.hono, ceiling.node, ...[...rows, ...single].flatMap((r) => [r.web, r.authjs, r.hono, r.authjsHono, r.node])]
  const wrong = all.reduce((n, f) => n + f.wrong, 0)
  console.log(`every response checked: ${wrong} wrong of ${all.reduce((n, f) => n + f.total, 0)}`)
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED')
  const threeTimes = (pick: (r: Row) => Ratio) => met(rows.every((r) => pick(r).median >= 3))
  const ownAtMost = (pick: (r: Row) => Figures, c: Figures) => met(rows.filter((r) => r.name !== names.postgres).every((r) => perRequest(pick(r)) - perRequest(c) <= 25))
  const ownCpuAtMost = (pick: (r: Row) => Figures, c: Figures) => met(rows.filter((r) => r.name !== names.postgres).every((r) => pick(r).user + pick(r).system - c.user - c.system <= 25))
  const pgRow = rows.find((r) => r.name === names.postgres)
  console.log(
    `targets: ≥ 3x Auth.js on every row: plain ${threeTimes((r) => r.ratio.web)}, Hono ${threeTimes((r) => r.ratio.hono)}; ` +
      `latchkey's own cost ≤ 25 µs (JWT, memory): plain ${ownAtMost((r) => r.web, ceiling.web)}, Hono ${ownAtMost((r) => r.hono, ceiling.hono)} ` +
      `(in CPU: plain ${ownCpuAtMost((r) => r.web, ceiling.web)}, Hono ${ownCpuAtMost((r) => r.hono, ceiling.hono)}); ` +
      `node binding ≥ 10x Auth.js on JWT: ${met(rows[0].ratio.node.median >= 10)} (${times(rows[0].ratio.node).trim()} over Auth.js plain, ${(rows[0].node.rps / rows[0].authjsHono.rps).toFixed(2)}x over Auth.js Hono)` +
      (pgRow ? `; PostgreSQL ≥ 1.5x: plain ${met(pgRow.ratio.web.median >= 1.5)}, Hono ${met(pgRow.ratio.hono.median >= 1.5)}` : ''),
  )
  if (memorySeconds > 0) {
    const m = await memory()
    const mb = (n: number) => (n / 1048576).toFixed(1)
    console.log(`\nheap under load (latchkey Web handler, JWT, ${users} users rotating, ${memorySeconds} s, ${m.requests} requests, ${m.wrong} wrong): ${mb(m.before)} MB after warm-up, ${mb(m.after)} MB after, growth ${mb(m.growth)} MB (target < 20 MB)`)
  }
}
