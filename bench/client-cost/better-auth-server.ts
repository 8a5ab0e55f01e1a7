/**
 * better-auth's server for the bench: `betterAuth()` with its memory adapter and email and
 * password sign-in, under its default /api/auth, with the session's `expiresIn` and `updateAge`
 * set as latchkey's `maxAge` and `updateAge` are; the better-auth page beside it. Everything else
 * is its default (no cookie cache, so every session read reads the store), but the rate limiter,
 * which is off: a run that drew 429s would count refusals as reads.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { toNodeHandler } from 'better-auth/node'
import type { Bundles } from './bundles.js'
import { countReads, type Counts } from './counted.js'
import type { BenchServer } from './latchkey-server.js'
import { serveApp } from './serve.js'

export async function startBetterAuthServer(bundles: Bundles, session: { maxAge: number; updateAge: number }): Promise<BenchServer> {
  const counts: Counts = { sessionRequests: 0, adapterReads: 0 }
  let auth: ReturnType<typeof toNodeHandler> | undefined
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path.startsWith('/api/auth/')) {
      if (req.method === 'GET' && path === '/api/auth/get-session') counts.sessionRequests++
      return auth!(req, res)
    }
    if (!(await serveApp(req, res, bundles))) res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://localhost:${(server.address() as AddressInfo).port}`
  const db: Record<string, unknown[]> = { user: [], session: [], account: [], verification: [] }
  const memory = memoryAdapter(db)
  auth = toNodeHandler(
    betterAuth({
      baseURL: url,
      secret: 'better-auth-bench-client-cost-0123456789abcdef',
      database: ((options: Parameters<typeof memory>[0]) => countReads(memory(options), (name) => /^(find|count)/.test(name), counts)) as typeof memory,
      emailAndPassword: { enabled: true },
      session: { expiresIn: session.maxAge, updateAge: session.updateAge },
      rateLimit: { enabled: false },
      telemetry: { enabled: false },
      logger: { disabled: true },
    }),
  )
  return {
    url,
    counts,
    signInScript: `(async () => {
      const r = await fetch('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ada@example.com', password: 'secret-password', name: 'ada' }) })
      return r.ok
    })()`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
