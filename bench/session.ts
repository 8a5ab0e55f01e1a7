/** GET /session through the real handler, in process: requests per second per strategy. */
import { MemoryAdapter } from '../src/adapters/memory.js'
import Credentials from '../src/providers/credentials.js'
import { Latchkey } from '../src/server/index.js'

async function measure(strategy: 'jwt' | 'database') {
  const handler = Latchkey({
    secret: 'bench-secret-0123456789-abcdefghij',
    adapter: strategy === 'database' ? MemoryAdapter() : undefined,
    session: { strategy },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [Credentials({ authorize: () => ({ id: 'u1', email: 'u1@example.com', name: 'U' }) })],
  })
  const csrf = await handler(new Request('http://localhost/auth/csrf'))
  const csrfCookie = csrf.headers.getSetCookie()[0].split(';')[0]
  const { csrfToken } = await csrf.json()
  const signin = await handler(
    new Request('http://localhost/auth/callback/credentials', {
      method: 'POST',
      headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken }),
    }),
  )
  const cookie = signin.headers.getSetCookie().find((c) => c.includes('session-token'))!.split(';')[0]
  const request = () => new Request('http://localhost/auth/session', { headers: { cookie } })
  for (let i = 0; i < 2000; i++) await (await handler(request())).text()
  // Rounds, medians, and CPU time beside wall time: on a shared machine a round another process
  // slowed is an outlier, and CPU time is what this process spent, whoever else ran.
  const rounds = 10
  const per = 2000
  const wall: number[] = []
  const cpu: number[] = []
  for (let round = 0; round < rounds; round++) {
    const start = performance.now()
    const used = process.cpuUsage()
    for (let i = 0; i < per; i++) {
      const body = await (await handler(request())).json()
      if (!body?.user) throw new Error('the session read returned no user')
    }
    const { user, system } = process.cpuUsage(used)
    wall.push(((performance.now() - start) * 1000) / per)
    cpu.push((user + system) / per)
  }
  const micros = median(wall)
  return { strategy, requests: rounds * per, perSecond: Math.round(1e6 / micros), microsEach: Math.round(micros), cpuMicros: Math.round(median(cpu)) }
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[sorted.length >> 1]!
}

export async function run(): Promise<void> {
  console.log('GET /session through Latchkey(), in process (no network), memory adapter for database:')
  for (const strategy of ['database', 'jwt'] as const) {
    const r = await measure(strategy)
    console.log(`  ${r.strategy.padEnd(8)} ${String(r.perSecond).padStart(7)} req/s  ${r.microsEach} µs each, ${r.cpuMicros} µs CPU  (${r.requests} requests, medians of 10 rounds, every answer checked)`)
  }
}
