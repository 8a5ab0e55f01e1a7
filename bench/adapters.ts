/**
 * The session read, per store: memory, PGlite (one in-memory instance) and a PostgreSQL server
 * (DATABASE_URL). For each: `getSessionAndUser` calls per second; GET /session requests per second
 * through the real handler, both ways a server runs it (the Web handler, Request in and Response
 * out, and the node binding, `toNodeHandler`, writing a real `ServerResponse` to an in-memory
 * socket); queries per request (target 1); and what each way adds over the adapter (target < 20%
 * where the store does real work). A seeded session that is not due makes the read write nothing.
 *
 * How: the calls alternate one by one (adapter, Web, node, and two floors, in an order that
 * reverses every cycle) and the median of single-call times is shown. A tight loop of bare adapter
 * calls keeps the driver hot in the CPU's caches as no request in a server ever finds it, and
 * alternating call by call lets a slow moment of the machine hit every column alike. The floors are
 * the least a handler can do over the same call: read the cookie, hash it, call the adapter, answer the JSON,
 * as a Web Response and as a node write. On Node 20 a Response with a body builds a ReadableStream,
 * so the Web floor alone costs several points. Every answer is checked.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { Writable } from 'node:stream'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { MemoryAdapter } from '../src/adapters/memory.js'
import { countQueries, fromPg, fromPGlite, migrate, PostgresAdapter, type CountingQueryable } from '../src/adapters/postgres/index.js'
import type { Adapter, AdapterSession, AdapterUser } from '../src/core/types.js'
import { toNodeHandler } from '../src/node/index.js'
import { Latchkey } from '../src/server/index.js'
import { storedSessionToken } from '../src/server/kernel/session-token.js'

const secret = 'bench-secret-0123456789-abcdefghij'
const day = 86_400_000
const cycles = Number(process.env.BENCH_CYCLES ?? 4000)
const overheadTarget = 20

interface Store {
  name: string
  adapter: Adapter
  /** Counts the adapter's queries; absent for the memory adapter, which sends none. */
  counter?: CountingQueryable
  close(): Promise<void>
}

type Arm = 'adapter' | 'web' | 'node' | 'webFloor' | 'nodeFloor'
const arms: Arm[] = ['adapter', 'web', 'node', 'webFloor', 'nodeFloor']

interface Figures {
  name: string
  /** Median µs per call, per arm. */
  micros: Record<Arm, number>
  queriesPerRead: number | null
}

async function memoryStore(): Promise<Store> {
  return { name: 'memory', adapter: MemoryAdapter(), close: async () => {} }
}

async function pgliteStore(): Promise<Store> {
  const db = await PGlite.create()
  await migrate(db)
  const counter = countQueries(fromPGlite(db))
  return { name: 'PGlite', adapter: PostgresAdapter(counter), counter, close: () => db.close() }
}

async function postgresStore(url: string): Promise<Store> {
  // Its own schema, so the run neither sees nor leaves rows in the database's other data.
  const schema = `lk_bench_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` })
  await migrate(pool)
  const counter = countQueries(fromPg(pool))
  return {
    name: 'PostgreSQL',
    adapter: PostgresAdapter(counter),
    counter,
    async close() {
      await pool.end()
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    },
  }
}

/** A socket stand-in that keeps what node's ServerResponse writes, so the answer can be checked. */
class Sink extends Writable {
  written: Buffer[] = []
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.written.push(Buffer.from(chunk))
    done()
  }
  take(): string {
    const text = Buffer.concat(this.written).toString()
    this.written = []
    return text
  }
}

/** A node request and response pair as node:http's server makes them, on the sink. */
function nodeExchange(sink: Sink, cookie: string): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket())
  req.method = 'GET'
  req.url = '/auth/session'
  req.headers = { host: 'localhost', cookie }
  const res = new ServerResponse(req)
  res.assignSocket(sink as unknown as Socket)
  return { req, res }
}

/** The JSON a session read answers, built the least costly way: the floors' body. */
function sessionJson(found: { session: AdapterSession; user: AdapterUser } | null): string {
  if (!found) throw new Error('floor: no session')
  const { user, session } = found
  return JSON.stringify({ user: { id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null }, expires: session.expires.toISOString() })
}

async function measure(store: Store): Promise<Figures> {
  const { adapter } = store
  const user = await adapter.createUser!({ id: randomUUID(), email: `bench-${randomUUID()}@example.com`, emailVerified: null, name: 'Bench', image: null })
  // The cookie carries the token, the store its hash (src/server/kernel/session-token.ts).
  const cookieToken = randomUUID()
  const sessionToken = await storedSessionToken(cookieToken)
  // Made now with the full maxAge, so no read in the next day is due: a read must not write.
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * day) })

  const handler = Latchkey({
    secret,
    adapter,
    session: { strategy: 'database', maxAge: 30 * 86400, updateAge: 86400 },
    logger: { error: (e) => console.error(e), warn: () => {}, debug: () => {} },
    providers: [],
  })
  const nodeHandler = toNodeHandler(handler)
  const cookie = `latchkey.session-token=${cookieToken}`
  const sink = new Sink()

  const checkBody = (where: string, status: number, text: string, setCookie: unknown) => {
    const body = JSON.parse(text) as { user?: { email?: string } } | null
    if (status !== 200 || body?.user?.email !== user.email) throw new Error(`${store.name} ${where}: GET /session answered ${status} ${text}`)
    if (setCookie) throw new Error(`${store.name} ${where}: GET /session set a cookie on a session that is not due`)
  }
  const checkNode = (where: string, res: ServerResponse) => {
    const raw = sink.take()
    checkBody(where, res.statusCode, raw.slice(raw.indexOf('\r\n\r\n') + 4), res.getHeader('set-cookie'))
    res.detachSocket(sink as unknown as Socket)
  }

  // Each arm answers the µs of its own part: building the Request and reading the answer back are
  // the caller's work, done (and every answer checked) outside the timing.
  const run: Record<Arm, () => Promise<number>> = {
    async adapter() {
      const started = performance.now()
      const found = await adapter.getSessionAndUser!(sessionToken)
      const ms = performance.now() - started
      if (found?.user.id !== user.id || found.session.sessionToken !== sessionToken) throw new Error(`${store.name}: getSessionAndUser returned the wrong record`)
      return ms
    },
    async web() {
      const request = new Request('http://localhost/auth/session', { headers: { cookie } })
      const started = performance.now()
      const response = await handler(request)
      const ms = performance.now() - started
      checkBody('Web handler', response.status, await response.text(), response.headers.getSetCookie().length)
      return ms
    },
    async node() {
      const { req, res } = nodeExchange(sink, cookie)
      const started = performance.now()
      await nodeHandler(req, res)
      const ms = performance.now() - started
      checkNode('node binding', res)
      return ms
    },
    async webFloor() {
      const request = new Request('http://localhost/auth/session', { headers: { cookie } })
      const started = performance.now()
      const header = request.headers.get('cookie')!
      const body = sessionJson(await adapter.getSessionAndUser!(await storedSessionToken(header.slice(header.indexOf('=') + 1))))
      const response = new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } })
      const ms = performance.now() - started
      checkBody('Web floor', response.status, await response.text(), null)
      return ms
    },
    async nodeFloor() {
      const { req, res } = nodeExchange(sink, cookie)
      const started = performance.now()
      const header = req.headers.cookie!
      const body = sessionJson(await adapter.getSessionAndUser!(await storedSessionToken(header.slice(header.indexOf('=') + 1))))
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) })
      res.end(body)
      const ms = performance.now() - started
      checkNode('node floor', res)
      return ms
    },
  }

  // Warm up every path (JIT, prepared plans, pool connections).
  for (let i = 0; i < 500; i++) for (const arm of arms) await run[arm]()

  let queriesPerRead: number | null = null
  if (store.counter) {
    store.counter.reset()
    for (let i = 0; i < 100; i++) {
      await run.web()
      await run.node()
    }
    queriesPerRead = store.counter.count / 200
  }

  const samples = Object.fromEntries(arms.map((arm) => [arm, [] as number[]])) as Record<Arm, number[]>
  const order = [...arms]
  for (let i = 0; i < cycles; i++) {
    shuffle(order)
    for (const arm of order) samples[arm].push((await run[arm]()) * 1000)
  }
  const micros = Object.fromEntries(arms.map((arm) => [arm, median(samples[arm])])) as Record<Arm, number>
  return { name: store.name, micros, queriesPerRead }
}

/** Fisher-Yates, so no kind of call always follows the same other kind. */
function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function overhead(r: Figures, arm: Arm): number {
  return ((r.micros[arm] - r.micros.adapter) / r.micros.adapter) * 100
}

/** The memory adapter does no I/O, so any handler cost is a large share of nothing: shown, not judged. */
function verdict(r: Figures, arm: Arm): string {
  if (r.queriesPerRead === null) return '(n/a)'
  return overhead(r, arm) < overheadTarget ? 'ok' : 'MISS'
}

function printTable(results: Figures[]): void {
  const width = 14
  const row = (label: string, cells: string[]) => console.log(`  ${label.padEnd(40)}${cells.map((c) => c.padStart(width)).join('')}`)
  const perSecond = (µs: number) => Math.round(1e6 / µs).toLocaleString('en-US')
  row('', results.map((r) => r.name))
  row('getSessionAndUser calls/s', results.map((r) => perSecond(r.micros.adapter)))
  row('  µs per call', results.map((r) => r.micros.adapter.toFixed(1)))
  row('queries per session read (1)', results.map((r) => (r.queriesPerRead === null ? 'none' : `${r.queriesPerRead} ${r.queriesPerRead === 1 ? 'ok' : 'MISS'}`)))
  for (const [arm, label] of [
    ['web', 'GET /session, Web handler'],
    ['node', 'GET /session, node binding'],
  ] as const) {
    row(`${label} req/s`, results.map((r) => perSecond(r.micros[arm])))
    row('  µs per request', results.map((r) => r.micros[arm].toFixed(1)))
    row(`  overhead over the adapter (< ${overheadTarget}%)`, results.map((r) => `${overhead(r, arm).toFixed(0)}% ${verdict(r, arm)}`))
  }
  row('floor: bare read, Web Response', results.map((r) => `${overhead(r, 'webFloor').toFixed(0)}%`))
  row('floor: bare read, node write', results.map((r) => `${overhead(r, 'nodeFloor').toFixed(0)}%`))
}

export async function run(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.warn(
      ['', '#'.repeat(78), '#  DATABASE_URL is not set: the PostgreSQL column is SKIPPED.', '#    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- adapters', '#'.repeat(78), ''].join('\n'),
    )
  }
  console.log(`Session read per store: ${cycles} cycles, each one call of every kind in alternating order; medians of single calls; every answer checked.`)
  const makers: Array<() => Promise<Store>> = [memoryStore, pgliteStore]
  if (url) makers.push(() => postgresStore(url))
  const results: Figures[] = []
  const setup: string[] = []
  for (const make of makers) {
    const started = performance.now()
    const store = await make()
    setup.push(`${store.name} ${((performance.now() - started) / 1000).toFixed(1)} s`)
    try {
      process.stdout.write(`  measuring ${store.name}...\n`)
      results.push(await measure(store))
    } finally {
      await store.close()
    }
  }
  printTable(results)
  console.log(`  (setup, not measured: ${setup.join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`)
  const misses = results.flatMap((r) => [
    ...(r.queriesPerRead !== null && r.queriesPerRead !== 1 ? [`${r.name} queries`] : []),
    ...(['web', 'node'] as const).filter((arm) => verdict(r, arm) === 'MISS').map((arm) => `${r.name} ${arm === 'web' ? 'Web handler' : 'node binding'}`),
  ])
  if (misses.length) {
    const web = misses.some((m) => m.endsWith('Web handler'))
    console.log(`  Targets missed: ${misses.join(', ')}${web ? " (the Web floor row is what Node's Response with a body costs by itself)" : ''}`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
