/**
 * latchkey against @auth/core, side by side in one run: the same credentials provider, the same
 * in-memory adapter, node:http on 127.0.0.1, each server alone in its own process, the load
 * (autocannon: keep-alive, 10 connections) from this one. Every response is checked.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

type Library = 'latchkey' | 'authjs'
type Strategy = 'jwt' | 'database'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 60)
const connections = 10

interface Target {
  child: ChildProcess
  origin: string
  info: { sessionCookie: string; seeded: string | null }
  next(prefix: string): Promise<string>
  stop(): Promise<void>
}

async function start(library: Library, strategy: Strategy): Promise<Target> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/http/target.ts', library, strategy], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = []
  lines.on('line', (line) => {
    const i = waiting.findIndex((w) => line.startsWith(w.prefix))
    if (i >= 0) waiting.splice(i, 1)[0].resolve(line)
  })
  const next = (prefix: string) => new Promise<string>((resolve) => waiting.push({ prefix, resolve }))
  const ready = await next('READY ')
  const [, port, json] = /^READY (\d+) (.*)$/.exec(ready)!
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    info: JSON.parse(json),
    next,
    stop: async () => {
      child.stdin!.end()
      await new Promise((r) => child.once('exit', r))
    },
  }
}

/** A session cookie: signed in through the credentials flow (jwt) or the seeded record (database). */
async function sessionCookie(t: Target): Promise<string> {
  if (t.info.seeded) return `${t.info.sessionCookie}=${t.info.seeded}`
  const jar = await signInOnce(t)
  if (!jar.session) throw new Error(`sign-in against ${t.origin} gave no session cookie`)
  return jar.session
}

/** csrf, credentials callback, session: one whole sign-in; returns the cookies and whether it worked. */
async function signInOnce(t: Target): Promise<{ session: string | null; ok: boolean }> {
  const csrf = await fetch(`${t.origin}/auth/csrf`)
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const callback = await fetch(`${t.origin}/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, username: 'bench', password: 'bench' }),
  })
  await callback.arrayBuffer()
  const session = callback.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith(t.info.sessionCookie + '=')) ?? null
  if (!session) return { session, ok: false }
  const read = await fetch(`${t.origin}/auth/session`, { headers: { cookie: session } })
  const body = (await read.json()) as { user?: { email?: string } } | null
  return { session, ok: body?.user?.email === 'bench@example.com' }
}

interface Figures {
  rps: number
  p50: number
  p99: number
  wrong: number
  total: number
  note?: string
}

async function load(url: string, headers: Record<string, string>, check: (body: string) => boolean, duration = seconds): Promise<Figures> {
  let setCookies = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    headers,
    verifyBody: check,
    requests: [{ method: 'GET', onResponse: (_s: number, _b: string, _c: unknown, h: Record<string, string>) => void (h['set-cookie'] && setCookies++) }],
  } as autocannon.Options)
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    wrong: result.mismatches + result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    note: `${setCookies} set-cookie`,
  }
}

/** Whole sign-ins for `seconds`, `connections` at a time. */
async function signInLoad(t: Target): Promise<Figures> {
  const until = Date.now() + seconds * 1000
  const times: number[] = []
  let wrong = 0
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const begin = performance.now()
        const { ok } = await signInOnce(t).catch(() => ({ ok: false }))
        times.push(performance.now() - begin)
        if (!ok) wrong++
      }
    }),
  )
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))])
  return { rps: Math.round(times.length / seconds), p50: at(0.5), p99: at(0.99), wrong, total: times.length }
}

const isSession = (body: string) => {
  try {
    return JSON.parse(body)?.user?.email === 'bench@example.com'
  } catch {
    return false
  }
}
const isProviders = (body: string) => body.includes('"credentials"') && body.includes('signinUrl')
const isCsrf = (body: string) => /"csrfToken":"[^"]{16,}"/.test(body)

async function measure(library: Library) {
  const rows: Record<string, Figures> = {}
  for (const strategy of ['jwt', 'database'] as Strategy[]) {
    const t = await start(library, strategy)
    try {
      const cookie = await sessionCookie(t)
      await load(`${t.origin}/auth/session`, { cookie }, isSession, 1) // warm-up
      rows[`GET /session (${strategy})`] = await load(`${t.origin}/auth/session`, { cookie }, isSession)
      if (strategy === 'jwt') {
        rows['GET /providers'] = await load(`${t.origin}/auth/providers`, {}, isProviders)
        rows['GET /csrf'] = await load(`${t.origin}/auth/csrf`, {}, isCsrf)
        rows['credentials sign-in (csrf, callback, session)'] = await signInLoad(t)
      }
    } finally {
      await t.stop()
    }
  }
  return rows
}

/** Heap after warm-up and after `memorySeconds` more at full load, both after a full GC. */
async function memory(library: Library) {
  const t = await start(library, 'jwt')
  try {
    const cookie = await sessionCookie(t)
    await load(`${t.origin}/auth/session`, { cookie }, isSession, 3)
    t.child.stdin!.write('heap\n')
    const before = Number((await t.next('HEAP ')).slice(5))
    const run = await load(`${t.origin}/auth/session`, { cookie }, isSession, memorySeconds)
    t.child.stdin!.write('heap\n')
    const after = Number((await t.next('HEAP ')).slice(5))
    return { before, after, growth: after - before, requests: run.total, wrong: run.wrong }
  } finally {
    await t.stop()
  }
}

const pad = (s: string | number, n: number) => String(s).padStart(n)

export async function run(): Promise<void> {
  console.log(`latchkey vs @auth/core ${JSON.parse(readFileSync('node_modules/@auth/core/package.json', 'utf8')).version}: node:http on 127.0.0.1, ${connections} connections, keep-alive, ${seconds} s per row, every response checked`)
  const ours = await measure('latchkey')
  const theirs = await measure('authjs')
  console.log(`\n${'route'.padEnd(46)} ${pad('latchkey req/s', 15)} ${pad('p50', 5)} ${pad('p99', 5)}   ${pad('Auth.js req/s', 14)} ${pad('p50', 5)} ${pad('p99', 5)}   ${pad('ratio', 6)}  wrong answers`)
  for (const name of Object.keys(ours)) {
    const a = ours[name]
    const b = theirs[name]
    console.log(
      `${name.padEnd(46)} ${pad(a.rps, 15)} ${pad(a.p50, 5)} ${pad(a.p99, 5)}   ${pad(b.rps, 14)} ${pad(b.p50, 5)} ${pad(b.p99, 5)}   ${pad((a.rps / b.rps).toFixed(2) + 'x', 6)}  ${a.wrong}/${a.total} vs ${b.wrong}/${b.total}${a.note ? `  (${a.note} vs ${b.note})` : ''}`,
    )
  }
  console.log('latencies in ms; "set-cookie" counts session reads that re-issued the cookie (latchkey: only when due)')
  if (memorySeconds > 0) {
    const m = await memory('latchkey')
    const mb = (n: number) => (n / 1048576).toFixed(1)
    console.log(`\nheap under load (latchkey, jwt GET /session, ${memorySeconds} s, ${m.requests} requests, ${m.wrong} wrong): ${mb(m.before)} MB after warm-up, ${mb(m.after)} MB after, growth ${mb(m.growth)} MB (target < 20 MB)`)
  }
}
