/**
 * One benchmark target in its own process:
 *   tsx bench/http/target.ts <latchkey|authjs|ceiling> <jwt|database|postgres> <web|hono|node>
 * `web`: the library's Web handler behind the shared node:http-to-Request harness (web-harness.ts);
 * `hono`: the same handler behind @hono/node-server's `getRequestListener`, the adapter a Web
 * handler is commonly deployed with on Node (lazy Request, Responses written without streams);
 * `node`: latchkey's own node binding (`toNodeHandler`), or for `ceiling` a bare node:http handler.
 * `ceiling` answers a fixed session JSON: the harness alone.
 *
 * BENCH_USERS users (default 10,000) each get a session: JWTs minted with each library's own
 * encoder and secret; database sessions seeded in the store (memory, or PostgreSQL under
 * DATABASE_URL in a schema of its own, latchkey's SQL adapter against @auth/pg-adapter). The
 * process writes the cookies to the file named in `READY <port> <json>`, and answers `heap` on
 * stdin with its heap after a full garbage collection, `cpu` with its CPU time so far (user and
 * system, µs).
 */
import { createServer, type RequestListener } from 'node:http'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { toNodeHandler } from '../../src/node/index.js'
import { Latchkey } from '../../src/server/index.js'
import { seal } from '../../src/server/kernel/jwt.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { webHarness } from './web-harness.js'
import { benchSchema } from './bench-schema.js'

type Library = 'latchkey' | 'authjs' | 'ceiling'
type Strategy = 'jwt' | 'database' | 'postgres'
const [library, strategy, mode] = process.argv.slice(2) as [Library, Strategy, 'web' | 'hono' | 'node']
/** The Web harness this target runs behind: ours (web-harness.ts) or @hono/node-server's. */
const { getRequestListener } = await import('@hono/node-server')
const harness = (handler: (request: Request) => Promise<Response>): RequestListener =>
  mode === 'hono' ? (getRequestListener(handler) as unknown as RequestListener) : webHarness(handler)
const users = Number(process.env.BENCH_USERS ?? 10_000)
const secret = 'bench-secret-0123456789-abcdefghij-klmnop'
const quiet = process.env.BENCH_DEBUG ? { error: (e: unknown) => console.error(e), warn: () => {}, debug: () => {} } : { error: () => {}, warn: () => {}, debug: () => {} }
const now = Math.floor(Date.now() / 1000)
const month = 30 * 86400
const userOf = (i: number) => ({ id: `user-${i}`, name: `User ${i}`, email: `u${i}@bench.example` })
const tokenOf = (i: number) => `bench-session-${i}-${secret.length}`

/** The server first: latchkey is told its public origin, which needs the port. */
const server = createServer()
server.keepAliveTimeout = 60_000
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const port = (server.address() as AddressInfo).port
const origin = `http://127.0.0.1:${port}`

let listener: RequestListener
let cookieName: string
let cookies: string[]
let close = async () => {}

if (library === 'ceiling') {
  const body = JSON.stringify({ user: userOf(0), expires: new Date((now + month) * 1000).toISOString() })
  cookieName = 'ceiling'
  cookies = Array.from({ length: users }, (_, i) => String(i))
  // The same user in every answer: the driver checks the ceiling for status and shape only.
  listener = mode === 'node'
    ? (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body)
    : harness(async () => new Response(body, { headers: { 'content-type': 'application/json' } }))
} else if (library === 'latchkey') {
  cookieName = 'latchkey.session-token'
  let adapter: Adapter | undefined
  if (strategy === 'jwt') {
    cookies = await Promise.all(Array.from({ length: users }, (_, i) => {
      const u = userOf(i)
      return seal({ sub: u.id, name: u.name, email: u.email, picture: null, auth_time: now }, [secret], cookieName, { now, expires: now + month })
    }))
  } else {
    cookies = Array.from({ length: users }, (_, i) => tokenOf(i))
    if (strategy === 'database') {
      adapter = MemoryAdapter()
      for (let i = 0; i < users; i++) {
        await adapter.createUser!({ ...userOf(i), emailVerified: null })
        await adapter.createSession!({ sessionToken: await storedSessionToken(tokenOf(i)), userId: userOf(i).id, expires: new Date((now + month) * 1000) })
      }
    } else {
      const seeded = await benchSchema('latchkey', users, tokenOf)
      adapter = seeded.adapter
      close = seeded.close
    }
  }
  const auth = Latchkey({
    secret,
    origin,
    adapter,
    session: { strategy: strategy === 'jwt' ? 'jwt' : 'database' },
    logger: quiet,
    rateLimit: false,
    // The same provider as Auth.js: credentials for JWT (Auth.js refuses email without an adapter), email for database.
    providers: [strategy === 'jwt' ? Credentials({ authorize: () => null }) : Email({ sendVerificationRequest: () => {} })],
  })
  listener = mode === 'node' ? toNodeHandler(auth) : harness(auth)
} else {
  const { Auth } = await import('@auth/core')
  const { encode } = await import('@auth/core/jwt')
  const { default: AuthEmail } = await import('@auth/core/providers/email')
  const { default: AuthCredentials } = await import('@auth/core/providers/credentials')
  cookieName = 'authjs.session-token'
  let adapter: unknown
  if (strategy === 'jwt') {
    cookies = await Promise.all(Array.from({ length: users }, (_, i) => {
      const u = userOf(i)
      return encode({ token: { sub: u.id, name: u.name, email: u.email, picture: null }, secret, salt: cookieName, maxAge: month })
    }))
  } else {
    cookies = Array.from({ length: users }, (_, i) => tokenOf(i))
    if (strategy === 'database') {
      // The same memory store as latchkey's row; Auth.js keeps the cookie itself as the key.
      const memory = MemoryAdapter()
      for (let i = 0; i < users; i++) {
        await memory.createUser!({ ...userOf(i), emailVerified: null })
        await memory.createSession!({ sessionToken: tokenOf(i), userId: userOf(i).id, expires: new Date((now + month) * 1000) })
      }
      adapter = memory
    } else {
      const seeded = await benchSchema('authjs', users, tokenOf)
      adapter = seeded.adapter
      close = seeded.close
    }
  }
  const config = {
    secret,
    trustHost: true,
    basePath: '/auth',
    adapter,
    session: { strategy: strategy === 'jwt' ? 'jwt' : 'database' },
    logger: quiet,
    providers: [strategy === 'jwt' ? AuthCredentials({ credentials: {}, authorize: () => null }) : AuthEmail({ server: 'smtp://127.0.0.1:9', from: 'bench@example.com', sendVerificationRequest: async () => {} } as never)],
  }
  if (mode === 'node') throw new Error('Auth.js has no node binding of its own here: run it behind a Web harness (web or hono)')
  listener = harness((request) => Auth(request, config as never) as Promise<Response>)
}

server.on('request', listener)
const file = join(tmpdir(), `latchkey-bench-cookies-${process.pid}.json`)
writeFileSync(file, JSON.stringify(cookies))
console.log(`READY ${port} ${JSON.stringify({ cookieName, file })}`)

process.stdin.setEncoding('utf8')
process.stdin.on('data', (line: string) => {
  if (line.trim() === 'cpu') {
    const { user, system } = process.cpuUsage()
    console.log(`CPU ${user} ${system}`)
    return
  }
  if (line.trim() !== 'heap') return
  ;(globalThis as { gc?: () => void }).gc?.()
  console.log(`HEAP ${process.memoryUsage().heapUsed}`)
})
process.stdin.on('end', () => void close().finally(() => process.exit(0)))
