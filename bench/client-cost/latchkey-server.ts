/**
 * latchkey's server for the bench: `Latchkey()` under /auth, database sessions on the memory
 * adapter, a credentials provider (any username, password "secret"); the pages of latchkey's
 * and next-auth's clients beside it (the same origin, as an app serves them).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { toNodeHandler } from '../../src/node/index.js'
import type { Bundles } from './bundles.js'
import { countReads, type Counts } from './counted.js'
import { serveApp } from './serve.js'

export interface BenchServer {
  url: string
  counts: Counts
  /** Signs a user in from the page (same origin), through the fetch API: the browser keeps the cookie. */
  signInScript: string
  close(): Promise<void>
}

export async function startLatchkeyServer(bundles: Bundles, session: { maxAge: number; updateAge: number }): Promise<BenchServer> {
  const counts: Counts = { sessionRequests: 0, adapterReads: 0 }
  const adapter = countReads(MemoryAdapter(), (name) => /^(get|list)/.test(name), counts)
  const auth = toNodeHandler(
    Latchkey({
      secret: 'latchkey-bench-client-cost-0123456789abcdef',
      adapter,
      session: { strategy: 'database', ...session },
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ username, password }) =>
            typeof username === 'string' && username && password === 'secret' ? { id: `user-${username}`, name: username, email: `${username}@example.com` } : null,
        }),
      ],
    }),
  )
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path.startsWith('/auth/')) {
      if (req.method === 'GET' && path === '/auth/session') counts.sessionRequests++
      return auth(req, res)
    }
    if (!(await serveApp(req, res, bundles))) res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    // localhost is a secure context, which service workers need.
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    counts,
    signInScript: `(async () => {
      const { csrfToken } = await (await fetch('/auth/csrf')).json()
      const r = await fetch('/auth/callback/credentials', { method: 'POST', headers: { 'x-auth-return-redirect': '1' }, body: new URLSearchParams({ csrfToken, username: 'ada', password: 'secret', callbackUrl: '/' }) })
      return r.ok && !/error=/.test((await r.json()).url)
    })()`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
