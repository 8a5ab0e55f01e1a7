/**
 * The runtime scenario's app, bundled once and served by Node, Bun, Deno and workerd: latchkey
 * instances behind one fetch handler, `/jwt` (JWT sessions), `/db` (database sessions on the
 * memory adapter) and `/pglite` (database sessions on the SQL adapter over PGlite, where the host
 * passes `env.openPGlite`; else 501), each with a credentials provider and email links sent by
 * `fetch` to the test's mail sink. `POST /clock?advance=<seconds>` moves their shared clock;
 * `GET /runtime` names the runtime.
 */
import { Latchkey, type Handler } from 'latchkey/server'
import { MemoryAdapter } from 'latchkey/adapters/memory'
import Credentials from 'latchkey/providers/credentials'
import Email from 'latchkey/providers/email'
import type { Adapter } from '../../src/core/types.js'

export interface Env {
  /** Where the email provider POSTs `{ to, url }`. */
  SINK_URL: string
  /** Opens the PGlite database (pglite-database.ts): given by the hosts that load PGlite, not by workerd. */
  openPGlite?: () => Promise<Adapter>
}

const clock = { now: 0 }
let instances: Record<string, Handler> | undefined
// PGlite starts cold in seconds: once per process, on the first /pglite request.
let pglite: Promise<Handler> | undefined

function latchkey(basePath: string, strategy: 'jwt' | 'database', env: Env, adapter: Adapter = MemoryAdapter()): Handler {
  return Latchkey({
    secret: 'runtime-scenario-secret-of-32-characters',
    basePath,
    adapter,
    session: { strategy, maxAge: 3600, updateAge: 600 },
    now: () => clock.now,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username, password }) => (username === 'ada' && password === 'right' ? { id: 'ada', email: 'ada@example.com', name: 'Ada' } : null),
      }),
      Email({
        sendVerificationRequest: async ({ identifier, url }) => {
          const sent = await fetch(env.SINK_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: identifier, url }) })
          if (!sent.ok) throw new Error(`the mail sink answered ${sent.status}`)
        },
      }),
    ],
  })
}

function runtime(): { name: string; version: string } {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } }; process?: { versions?: { node?: string } }; navigator?: { userAgent?: string } }
  if (g.Bun) return { name: 'bun', version: g.Bun.version }
  if (g.Deno) return { name: 'deno', version: g.Deno.version.deno }
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return { name: 'workerd', version: '' }
  return { name: 'node', version: g.process?.versions?.node ?? '' }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // Built on the first request, which starts the shared clock: in workerd, Date.now() reads 0 at
    // start-up. latchkey itself may be built at the top (docs/guides/runtimes.md).
    if (!instances) {
      clock.now = Date.now()
      instances = { jwt: latchkey('/jwt', 'jwt', env), db: latchkey('/db', 'database', env) }
    }
    const url = new URL(request.url)
    if (url.pathname === '/runtime') return Response.json(runtime())
    if (url.pathname === '/clock' && request.method === 'POST') {
      clock.now += Number(url.searchParams.get('advance')) * 1000
      return Response.json({ now: clock.now })
    }
    const first = url.pathname.split('/')[1] ?? ''
    if (first === 'pglite') {
      const open = env.openPGlite
      if (!open) return Response.json({ error: 'PGlite is not loaded in this runtime' }, { status: 501 })
      pglite ??= open().then((adapter) => latchkey('/pglite', 'database', env, adapter))
      const handler = await pglite.catch((error: Error) => error)
      return handler instanceof Error ? Response.json({ error: `PGlite did not open: ${handler.stack ?? handler.message}` }, { status: 500 }) : handler(request)
    }
    const instance = instances[first]
    return instance ? instance(request) : new Response('Not found', { status: 404 })
  },
}
