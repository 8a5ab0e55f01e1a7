/**
 * One latchkey server as its own process, for tests that run several against one database:
 *   node --import tsx test/support/server-process.ts
 * Environment:
 *   DATABASE_URL          postgres:// URL (required)
 *   LATCHKEY_TEST_SCHEMA  the schema to use (put first on every connection's search_path)
 *   AUTH_SECRET           the secret, the same for every process
 *   LATCHKEY_ORIGIN       the public origin, as when several servers sit behind one load balancer
 *   LATCHKEY_CLOCK_FILE   a file holding a clock offset in milliseconds, read on every request, so
 *                         a test moves every process's clock at once by writing one file
 *   LATCHKEY_DRAIN_MS     how long SIGTERM's drain keeps answering with readiness failing (default 0)
 *   LATCHKEY_REDIS_URL    rate limits in this Redis (redisRateLimitStore, ioredis), not in the database
 *   LATCHKEY_TRUST_PROXY  rateLimit.trustProxy: the number of proxies in front (haproxy: 1)
 *   LATCHKEY_PASSWORD     "1": the Password provider too (breached check off), its emails on stdout
 *   LATCHKEY_PASSKEY      "1": the Passkey provider too (RP ID from LATCHKEY_ORIGIN)
 * stdout carries one JSON object a line: {"listening":port} once, then {"email":url,"code":code,"to":address}
 * per email link, and {"mail":kind,"to":address,"url":url,"code":code} per Password email.
 * For the soak (bench/soak.ts) and the cluster (test/support/cluster.ts), all off unless set:
 *   LATCHKEY_PORT         the port to listen on (default: any free one), so a restart comes back at the same address
 *   LATCHKEY_SOAK_USERS   "1": credentials also accept username soak-<n> with password soak-<n>-pw (user id soak-user-<n>)
 *   LATCHKEY_RATE_LIMIT   "per-account": only per-account limits (every simulated user comes from 127.0.0.1);
 *                         "off": rateLimit: false (what is still counted must be counted in the store)
 *   LATCHKEY_HEAP_REPORT  "1": a line "heap" on stdin answers {"heap":heapUsed} after a forced GC (run node with --expose-gc)
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { openDatabase } from '../../src/adapters/postgres/index.js'
import { redisRateLimitStore } from '../../src/adapters/redis-rate-limit.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import Password from '../../src/providers/password.js'
import { gracefulShutdown, toNodeHandler } from '../../src/node/index.js'
import { Latchkey } from '../../src/server/index.js'
import { defaultRateLimitRules } from '../../src/server/kernel/rate-limit/index.js'

const url = process.env.DATABASE_URL
const schema = process.env.LATCHKEY_TEST_SCHEMA
const clockFile = process.env.LATCHKEY_CLOCK_FILE
if (!url) throw new Error('server-process: DATABASE_URL is required')
if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`server-process: LATCHKEY_TEST_SCHEMA must be a plain identifier, got ${schema}`)

function withSchema(databaseUrl: string, name: string | undefined): string {
  if (!name) return databaseUrl
  const parsed = new URL(databaseUrl)
  parsed.searchParams.set('options', `-c search_path=${name}`)
  return parsed.toString()
}

/** The offset in the clock file, re-read each time; an absent or empty file means no offset. */
function clockOffset(): number {
  if (!clockFile) return 0
  let text: string
  try {
    text = readFileSync(clockFile, 'utf8').trim()
  } catch {
    return 0
  }
  const offset = Number(text || 0)
  if (!Number.isFinite(offset)) throw new Error(`server-process: the clock file holds ${JSON.stringify(text)}, not a number of milliseconds`)
  return offset
}

/** The SQLSTATE under an error (its cause chain), for the log: 57P01 for a restart, 25006 for a write on a replica. */
function sqlState(error: unknown): string | undefined {
  for (let at = error; at instanceof Error; at = at.cause) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

const say = (message: object) => process.stdout.write(JSON.stringify(message) + '\n')

const soakUser = (username: unknown, password: unknown) => {
  if (process.env.LATCHKEY_SOAK_USERS !== '1' || typeof username !== 'string' || !/^soak-\d+$/.test(username) || password !== `${username}-pw`) return null
  return { id: `soak-user-${username.slice(5)}`, name: username, email: `${username}@example.com` }
}
const perAccount = process.env.LATCHKEY_RATE_LIMIT === 'per-account'
const accountRules = (rules: typeof defaultRateLimitRules.email) => rules.filter((rule) => rule.per !== 'client')

const adapter = await openDatabase(withSchema(url, schema))
const redis = process.env.LATCHKEY_REDIS_URL ? new (await import('ioredis')).Redis(process.env.LATCHKEY_REDIS_URL) : undefined
// As an app does: a reconnecting client reports each failed attempt as an 'error' event; the store logs the outage.
redis?.on('error', () => {})
const trustProxy = process.env.LATCHKEY_TRUST_PROXY ? Number(process.env.LATCHKEY_TRUST_PROXY) : undefined
const rules = perAccount ? { email: accountRules(defaultRateLimitRules.email), credentials: accountRules(defaultRateLimitRules.credentials), passkeyOptions: [] } : undefined
const handler = Latchkey({
  adapter,
  origin: process.env.LATCHKEY_ORIGIN || undefined,
  session: { strategy: 'database', maxAge: 30 * 86400, updateAge: 86400 },
  now: () => Date.now() + clockOffset(),
  // Second factors: only users who enrol one are asked (mia, in the multi-server test).
  mfa: true,
  rateLimit: process.env.LATCHKEY_RATE_LIMIT === 'off' ? false : { rules, trustProxy, store: redis && redisRateLimitStore(redis) },
  logger: {
    error: (e) => process.stderr.write(`error ${e.name}: ${e.message}${sqlState(e) ? ` [${sqlState(e)}]` : ''}\n`),
    warn: (code) => process.stderr.write(`warn ${code}\n`),
    debug: () => {},
  },
  providers: [
    Credentials({
      credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
      authorize: async (c) =>
        c.username === 'ada' && c.password === 'lovelace'
          ? { id: 'user-ada', name: 'Ada', email: 'ada@example.com' }
          : c.username === 'mia' && c.password === 'mia-pw'
            ? { id: 'user-mia', name: 'Mia', email: 'mia@example.com' }
            : soakUser(c.username, c.password),
    }),
    Email({ sendVerificationRequest: ({ url: link, code, identifier }) => void say({ email: link, code, to: identifier }) }),
    ...(process.env.LATCHKEY_PASSWORD === '1' ? [Password({ breached: false, sendEmail: (m) => void say({ mail: m.kind, to: m.to, url: m.url, code: m.code }) })] : []),
    ...(process.env.LATCHKEY_PASSKEY === '1' ? [Passkey()] : []),
  ],
})

const server = createServer(toNodeHandler(handler))
server.listen(Number(process.env.LATCHKEY_PORT || 0), '127.0.0.1', () => say({ listening: (server.address() as AddressInfo).port }))

if (process.env.LATCHKEY_HEAP_REPORT === '1') {
  const gc = (globalThis as { gc?: () => void }).gc
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'heap') return
    gc?.()
    say({ heap: process.memoryUsage().heapUsed, gc: Boolean(gc) })
  })
}

// SIGTERM drains as a deployed app's does (latchkey/node's gracefulShutdown): readiness fails for
// LATCHKEY_DRAIN_MS (default 0, a stop at once), the requests under way finish, the process exits 0.
gracefulShutdown(server, handler, {
  drainMs: Number(process.env.LATCHKEY_DRAIN_MS || 0),
  signals: ['SIGTERM', 'SIGINT'],
  afterClose: async () => {
    redis?.disconnect()
    await adapter.close()
  },
})
