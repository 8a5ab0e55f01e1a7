/**
 * The session read, per store: memory, PGlite (one in-memory instance) and a PostgreSQL server
 * (DATABASE_URL). For each: `getSessionAndUser` calls per second, GET /session requests per
 * second through the real handler (in process, no network, a seeded session that is not due, so
 * the read writes nothing), queries per request (target 1), and what the handler adds over the
 * adapter (target < 20% where the store does real work): the handler's own time, from the Request
 * it is given to the Response it returns, against the adapter call alone. Calls run one at a time, adapter and
 * handler in paired rounds, and medians are reported, so a round that another process slowed does
 * not set the figure. Every answer is checked.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { availableParallelism, loadavg } from 'node:os'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { MemoryAdapter } from '../src/adapters/memory.js'
import { countQueries, fromPg, fromPGlite, migrate, PostgresAdapter, type CountingQueryable } from '../src/adapters/postgres/index.js'
import type { Adapter } from '../src/core/types.js'
import { Latchkey, type Handler } from '../src/server/index.js'

const secret = 'bench-secret-0123456789-abcdefghij'
const day = 86_400_000
const rounds = 8
const roundSeconds = Number(process.env.BENCH_ROUND_SECONDS ?? 0.25)
const overheadTarget = 20

interface Store {
  name: string
  adapter: Adapter
  /** Counts the adapter's queries; absent for the memory adapter, which sends none. */
  counter?: CountingQueryable
  close(): Promise<void>
}

interface Figures {
  name: string
  adapterPerSecond: number
  handlerPerSecond: number
  adapterMicros: number
  handlerMicros: number
  queriesPerRead: number | null
  overheadPercent: number
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

/** Runs `once` one call at a time for `seconds`; answers the calls made and the time taken. */
async function timed(seconds: number, once: () => Promise<void>): Promise<{ calls: number; ms: number }> {
  const start = performance.now()
  const end = start + seconds * 1000
  let calls = 0
  do {
    for (let i = 0; i < 50; i++) await once()
    calls += 50
  } while (performance.now() < end)
  return { calls, ms: performance.now() - start }
}

async function measure(store: Store): Promise<Figures> {
  const { adapter } = store
  const user = await adapter.createUser!({ id: randomUUID(), email: `bench-${randomUUID()}@example.com`, emailVerified: null, name: 'Bench', image: null })
  const sessionToken = randomUUID()
  // Made now with the full maxAge, so no read in the next day is due: a read must not write.
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * day) })

  const handler: Handler = Latchkey({
    secret,
    adapter,
    session: { strategy: 'database', maxAge: 30 * 86400, updateAge: 86400 },
    logger: { error: (e) => console.error(e), warn: () => {}, debug: () => {} },
    providers: [],
  })
  const cookie = `latchkey.session-token=${sessionToken}`

  const adapterCall = async () => {
    const found = await adapter.getSessionAndUser!(sessionToken)
    if (found?.user.id !== user.id || found.session.sessionToken !== sessionToken) throw new Error(`${store.name}: getSessionAndUser returned the wrong record`)
  }
  // The handler's own time: from the Request it is given to the Response it returns. Building the
  // Request and reading the answer are the caller's work, done (and every answer checked) outside it.
  let insideMs = 0
  const handlerCall = async () => {
    const request = new Request('http://localhost/auth/session', { headers: { cookie } })
    const started = performance.now()
    const response = await handler(request)
    insideMs += performance.now() - started
    const body = (await response.json()) as { user?: { id?: string; email?: string } } | null
    if (response.status !== 200 || body?.user?.email !== user.email) throw new Error(`${store.name}: GET /session answered ${response.status} ${JSON.stringify(body)}`)
    if (response.headers.getSetCookie().length) throw new Error(`${store.name}: GET /session set a cookie on a session that is not due`)
  }

  // Warm up both paths (JIT, prepared plans, pool connections).
  await timed(0.2, adapterCall)
  await timed(0.2, handlerCall)

  let queriesPerRead: number | null = null
  if (store.counter) {
    store.counter.reset()
    for (let i = 0; i < 100; i++) await handlerCall()
    queriesPerRead = store.counter.count / 100
  }

  // Paired rounds, medians: on a busy machine a round that another process slowed is an outlier, not the figure.
  const adapterRounds: number[] = []
  const handlerRounds: number[] = []
  const overheads: number[] = []
  for (let round = 0; round < rounds; round++) {
    const a = await timed(roundSeconds, adapterCall)
    insideMs = 0
    const h = await timed(roundSeconds, handlerCall)
    const adapterMicros = (a.ms * 1000) / a.calls
    adapterRounds.push(adapterMicros)
    handlerRounds.push((h.ms * 1000) / h.calls)
    overheads.push((((insideMs * 1000) / h.calls - adapterMicros) / adapterMicros) * 100)
  }
  const adapterMicros = median(adapterRounds)
  const handlerMicros = median(handlerRounds)
  return {
    name: store.name,
    adapterPerSecond: Math.round(1e6 / adapterMicros),
    handlerPerSecond: Math.round(1e6 / handlerMicros),
    adapterMicros,
    handlerMicros,
    queriesPerRead,
    overheadPercent: median(overheads),
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function printTable(results: Figures[]): void {
  const width = 14
  const row = (label: string, cells: string[]) => console.log(`  ${label.padEnd(34)}${cells.map((c) => c.padStart(width)).join('')}`)
  row('', results.map((r) => r.name))
  row('getSessionAndUser calls/s', results.map((r) => r.adapterPerSecond.toLocaleString('en-US')))
  row('  µs per call', results.map((r) => r.adapterMicros.toFixed(1)))
  row('GET /session requests/s', results.map((r) => r.handlerPerSecond.toLocaleString('en-US')))
  row('  µs per request', results.map((r) => r.handlerMicros.toFixed(1)))
  row('queries per session read (1)', results.map((r) => (r.queriesPerRead === null ? 'none' : `${r.queriesPerRead} ${r.queriesPerRead === 1 ? 'ok' : 'MISS'}`)))
  row('handler µs over adapter', results.map((r) => (r.handlerMicros - r.adapterMicros).toFixed(1)))
  row(`handler overhead (< ${overheadTarget}%)`, results.map((r) => `${r.overheadPercent.toFixed(0)}% ${verdict(r)}`))
}

/** The memory adapter does no I/O, so any handler cost is a large share of nothing: shown, not judged. */
function verdict(r: Figures): string {
  if (r.queriesPerRead === null) return '(n/a)'
  return r.overheadPercent < overheadTarget ? 'ok' : 'MISS'
}

export async function run(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.warn(
      ['', '#'.repeat(78), '#  DATABASE_URL is not set: the PostgreSQL column is SKIPPED.', '#    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- adapters', '#'.repeat(78), ''].join('\n'),
    )
  }
  console.log(
    `Session read per store: one call at a time; ${rounds} paired rounds of ${roundSeconds} s (adapter, then handler), medians shown; every answer checked.`,
  )
  const makers: Array<() => Promise<Store>> = [memoryStore, pgliteStore]
  if (url) makers.push(() => postgresStore(url))
  const results: Figures[] = []
  const setup: string[] = []
  for (const make of makers) {
    const started = performance.now()
    const store = await make()
    setup.push(`${store.name} ${((performance.now() - started) / 1000).toFixed(1)} s`)
    try {
      results.push(await measure(store))
    } finally {
      await store.close()
    }
  }
  printTable(results)
  console.log(`  (setup, not measured: ${setup.join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`)
  const misses = results.filter((r) => (r.queriesPerRead !== null && r.queriesPerRead !== 1) || verdict(r) === 'MISS')
  if (misses.length) console.log(`  Targets missed by: ${misses.map((r) => r.name).join(', ')}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
