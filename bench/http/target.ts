/**
 * One benchmark target in its own process: `tsx bench/http/target.ts <latchkey|authjs> <jwt|database>`.
 * Both libraries get the same provider and the same in-memory adapter: credentials for the JWT
 * strategy; for the database strategy an email provider, since Auth.js refuses credentials there. The process
 * prints `READY <port> <json>` with what the driver needs, and answers `heap` on stdin with its
 * heap size after a full garbage collection.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey, toNodeHandler } from '../../src/server/index.js'
import { storedSessionToken } from '../../src/server/session-token.js'

const [library, strategy] = process.argv.slice(2) as ['latchkey' | 'authjs', 'jwt' | 'database']
const secret = 'bench-secret-0123456789-abcdefghij-klmnop'
const user = { id: 'bench-user', name: 'Bench User', email: 'bench@example.com' }
const adapter = MemoryAdapter()
const quiet = process.env.BENCH_DEBUG ? { error: (e: unknown) => console.error(e), warn: () => {}, debug: () => {} } : { error: () => {}, warn: () => {}, debug: () => {} }

// The database strategy's session is made directly in the store: Auth.js refuses credentials
// sign-in with database sessions, so both get the same seeded session instead.
const seeded = `seeded-${crypto.randomUUID()}`
if (strategy === 'database') {
  await adapter.createUser({ ...user, emailVerified: null })
  // latchkey stores the cookie's hash (src/server/session-token.ts); Auth.js the cookie itself.
  const sessionToken = library === 'latchkey' ? await storedSessionToken(seeded) : seeded
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86400_000) })
}

let handler: (request: Request) => Promise<Response>
let sessionCookie: string
if (library === 'latchkey') {
  handler = Latchkey({
    secret,
    adapter: strategy === 'database' ? adapter : undefined,
    session: { strategy },
    logger: quiet,
    // Auth.js has none; a load test of one account would trip ours.
    rateLimit: false,
    providers: strategy === 'jwt' ? [Credentials({ authorize: () => user })] : [Email({ sendVerificationRequest: () => {} })],
  })
  sessionCookie = 'latchkey.session-token'
} else {
  const { Auth } = await import('@auth/core')
  const { default: AuthCredentials } = await import('@auth/core/providers/credentials')
  const { default: AuthEmail } = await import('@auth/core/providers/email')
  const config = {
    secret,
    trustHost: true,
    basePath: '/auth',
    adapter: strategy === 'database' ? (adapter as any) : undefined,
    session: { strategy },
    logger: quiet,
    providers:
      strategy === 'jwt'
        ? [AuthCredentials({ credentials: { username: {}, password: {} }, authorize: () => user })]
        : [AuthEmail({ server: 'smtp://127.0.0.1:9', from: 'bench@example.com', sendVerificationRequest: async () => {} } as any)],
  }
  handler = (request) => Auth(request, config as any) as Promise<Response>
  sessionCookie = 'authjs.session-token'
}

const server = createServer(toNodeHandler(handler))
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port
  console.log(`READY ${port} ${JSON.stringify({ sessionCookie, seeded: strategy === 'database' ? seeded : null })}`)
})

process.stdin.setEncoding('utf8')
process.stdin.on('data', (line: string) => {
  if (line.trim() !== 'heap') return
  ;(globalThis as { gc?: () => void }).gc?.()
  console.log(`HEAP ${process.memoryUsage().heapUsed}`)
})
process.stdin.on('end', () => process.exit(0))
