/**
 * The soak (issue 10): many simulated users sign in, read their sessions, update them, sign out
 * and sign in again, for minutes, against two latchkey server processes on one PostgreSQL
 * database, with one process SIGKILLed in the middle and restarted at the same address a few
 * seconds later. Then: every user who should be signed in reads as signed in on both servers,
 * every signed-out user reads null, the sessions table holds exactly what the users hold, no
 * answer was an error except connection failures while the killed server was down, and the
 * surviving server's heap (after a forced GC) is where it was after warm-up.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- soak
 *   SOAK_USERS (200)  SOAK_SECONDS (180)  SOAK_CONCURRENCY (20)  SOAK_RESTART_DELAY (3 s)
 *   SOAK_MAX_HEAP_GROWTH_MB (8)
 *
 * Traffic goes through a small load balancer in this process: round robin over the servers in
 * rotation; a connection failure takes a server out of rotation (a passive health check) and the
 * request is retried on the other; a probe every 250 ms puts a server that answers back in. The
 * servers are test/support/server-process.ts, with its soak switches: users soak-<n>, rate limits
 * per account only (every simulated user comes from 127.0.0.1; the per-account limits stay on,
 * and each user keeps under them), and a heap report on stdin.
 */
import { createHash } from 'node:crypto'
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { createIsolatedSchema } from '../test/adapters/isolated-schema.js'
import { Jar } from '../test/support/jar.js'

export interface SoakOptions {
  databaseUrl: string
  users: number
  seconds: number
  /** Requests in flight at once, across all users. */
  concurrency: number
  /** Seconds between the kill and the restart. */
  restartDelaySeconds: number
  /** The surviving server's heap may grow this much from warm-up to the end; more fails the run. */
  maxHeapGrowthMB: number
  /** Progress lines; default none. */
  log?: (line: string) => void
}

export interface SoakResult {
  ok: boolean
  /** Why the run failed, one line each; empty when it passed. */
  failures: string[]
  summary: string
  requests: number
  /** Sessions that should have existed and did not (read null, or missing from the table). */
  lost: number
  /** Sessions that should have been gone and were not (read as signed in, or still in the table). */
  resurrected: number
  expectedErrors: number
  unexpectedErrors: number
  sessionsChecked: number
  heapGrowthMB: number | null
}

const root = fileURLToPath(new URL('..', import.meta.url))
const script = fileURLToPath(new URL('../test/support/server-process.ts', import.meta.url))
const secret = 'soak-secret-0123456789-abcdef-0123456789'
const publicOrigin = 'http://app.test'
/** Per-account credentials limit is 10 per 15 minutes; each user stays under it, with room for a retried attempt. */
const signInsPerWindow = 8
const rateWindowMs = 15 * 60_000
/** Connection failures this long after a restarted server is ready still count as the outage's. */
const outageGraceMs = 2_000

type Kind = 'csrf' | 'sign-in' | 'session read' | 'session update' | 'sign-out'
const kinds: Kind[] = ['session read', 'session update', 'csrf', 'sign-in', 'sign-out']

// ---------------------------------------------------------------------------------------------
// Server processes

interface Slot {
  name: string
  port: number
  origin: string
  child: ChildProcess
  stderr: string[]
  /** In the balancer's rotation. */
  inRotation: boolean
  /** Resolvers for heap reports asked on stdin. */
  heapWaiters: Array<(bytes: number) => void>
  outages: Array<{ killedAt: number; restartedAt?: number; readyAt?: number; backAt?: number }>
}

async function spawnServer(env: Record<string, string>, port: number, name: string, stderr: string[]): Promise<{ child: ChildProcess; port: number; heapWaiters: Slot['heapWaiters'] }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env, LATCHKEY_PORT: String(port) },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const heapWaiters: Slot['heapWaiters'] = []
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(`${name}: ${line}`))
  // A killed child's stdin may fail a later write; that must not take this process down.
  child.stdin!.on('error', () => {})
  const listening = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${name} did not start within 30 s; stderr:\n${stderr.join('\n')}`)), 30_000)
    child.once('exit', (code) => reject(new Error(`server ${name} exited with code ${code} before listening; stderr:\n${stderr.join('\n')}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: { listening?: number; heap?: number }
      try {
        message = JSON.parse(line)
      } catch {
        return
      }
      if (message.heap !== undefined) heapWaiters.shift()?.(message.heap)
      if (message.listening) {
        clearTimeout(timer)
        resolve(message.listening)
      }
    })
  })
  return { child, port: listening, heapWaiters }
}

function heapOf(slot: Slot): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${slot.name} did not report its heap within 30 s`)), 30_000)
    slot.heapWaiters.push((bytes) => {
      clearTimeout(timer)
      resolve(bytes)
    })
    slot.child.stdin!.write('heap\n')
  })
}

async function stopServer(slot: Slot | undefined): Promise<void> {
  if (!slot || slot.child.exitCode !== null || slot.child.signalCode !== null) return
  const exited = new Promise((resolve) => slot.child.once('exit', resolve))
  slot.child.kill('SIGTERM')
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
  if (slot.child.exitCode === null && slot.child.signalCode === null) slot.child.kill('SIGKILL')
}

// ---------------------------------------------------------------------------------------------
// Figures

class Stats {
  readonly latencies = new Map<Kind, number[]>(kinds.map((k) => [k, []]))
  expectedErrors = 0
  unexpectedErrors = 0
  retries = 0
  /** Answered requests per server process. */
  readonly byServer = new Map<string, number>()
  lost = 0
  resurrected = 0
  /** The first few unexpected things, verbatim. */
  readonly samples: string[] = []

  unexpected(message: string): void {
    this.unexpectedErrors++
    if (this.samples.length < 12) this.samples.push(message)
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const mb = (bytes: number) => bytes / 1024 / 1024
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-')

// ---------------------------------------------------------------------------------------------
// Simulated users

interface User {
  n: number
  username: string
  email: string
  jar: Jar
  csrfToken: string | null
  /** What the answers so far say: true after a sign-in was answered, false after a sign-out was. */
  signedIn: boolean
  signInTimes: number[]
  /** Sign-in attempts whose answer a connection failure swallowed: each may have left a session nobody holds. */
  interruptedSignIns: number
  /** Session tokens this user signed out; none may come back. */
  ended: string[]
  busy: boolean
}

const sessionCookieName = (jar: Jar) => [...jar.cookies.keys()].find((k) => k.endsWith('session-token'))
const sessionToken = (jar: Jar) => {
  const name = sessionCookieName(jar)
  return name ? jar.cookies.get(name) : undefined
}

class ConnectionFailure extends Error {}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {})
  const stats = new Stats()
  const failures: string[] = []
  const schema = await createIsolatedSchema(options.databaseUrl)
  const serverStderr: string[] = []
  const slots: Slot[] = []
  /** Times print relative to the start of the load. */
  let t0 = Date.now()
  const at = (time: number | undefined) => (time === undefined ? '-' : `${fixed((time - t0) / 1000)} s`)
  let probe: NodeJS.Timeout | undefined
  try {
    const env = {
      DATABASE_URL: options.databaseUrl,
      LATCHKEY_TEST_SCHEMA: schema.name,
      AUTH_SECRET: secret,
      LATCHKEY_ORIGIN: publicOrigin,
      LATCHKEY_SOAK_USERS: '1',
      LATCHKEY_RATE_LIMIT: 'per-account',
      LATCHKEY_HEAP_REPORT: '1',
    }
    // Both at once: both migrate the empty schema, and the migration lock lets one win.
    const started = await Promise.all(['A', 'B'].map((name) => spawnServer(env, 0, name, serverStderr)))
    started.forEach((s, i) => {
      const name = i === 0 ? 'A' : 'B'
      slots.push({ name, port: s.port, origin: `http://127.0.0.1:${s.port}`, child: s.child, stderr: serverStderr, inRotation: true, heapWaiters: s.heapWaiters, outages: [] })
    })
    const [survivor, victim] = slots as [Slot, Slot]
    log(`soak: servers A ${survivor.origin}, B ${victim.origin}, schema ${schema.name}`)

    // ---- the load balancer
    let turn = 0
    const pick = async (avoid?: Slot): Promise<Slot> => {
      for (;;) {
        const candidates = slots.filter((s) => s.inRotation && s !== avoid)
        const pool = candidates.length ? candidates : slots.filter((s) => s.inRotation)
        if (pool.length) return pool[turn++ % pool.length]!
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    const inOutage = (slot: Slot, time: number) => slot.outages.some((o) => time >= o.killedAt && time <= (o.readyAt ?? Infinity) + outageGraceMs)
    probe = setInterval(() => {
      for (const slot of slots) {
        if (slot.inRotation || slot.child.exitCode !== null || slot.child.signalCode !== null) continue
        fetch(`${slot.origin}/auth/providers`)
          .then(async (res) => {
            await res.arrayBuffer()
            if (res.status !== 200 || slot.inRotation) return
            slot.inRotation = true
            const outage = slot.outages.at(-1)
            if (outage && outage.backAt === undefined) outage.backAt = Date.now()
          })
          .catch(() => {})
      }
    }, 250)

    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })

    /**
     * One request from a user, through the balancer: answered with its status and body, retried on
     * another server after a connection failure. A failure is expected only against a server that
     * was down (from its kill until shortly after its restart was ready).
     */
    const send = async (user: User, kind: Kind, path: string, init: RequestInit = {}, record = true): Promise<{ status: number; location: string | null; text: string }> => {
      let avoid: Slot | undefined
      for (let attempt = 0; attempt < 4; attempt++) {
        const slot = await pick(avoid)
        const began = performance.now()
        try {
          const res = await user.jar.request(`${slot.origin}${path}`, init).catch((error: unknown) => {
            throw new ConnectionFailure(describe(error))
          })
          const text = await res.text().catch((error: unknown) => {
            throw new ConnectionFailure(describe(error))
          })
          if (record) stats.latencies.get(kind)!.push(performance.now() - began)
          const served = slot.outages.length ? `${slot.name} (restarted)` : slot.name
          stats.byServer.set(served, (stats.byServer.get(served) ?? 0) + 1)
          return { status: res.status, location: res.headers.get('location'), text }
        } catch (error) {
          if (!(error instanceof ConnectionFailure)) throw error
          const now = Date.now()
          if (inOutage(slot, now)) stats.expectedErrors++
          else stats.unexpected(`${kind} on ${slot.name} at ${at(now)}: connection failure outside the outage: ${error.message}`)
          if (kind === 'sign-in') user.interruptedSignIns++
          // The passive health check: out of rotation until a probe finds it answering.
          slot.inRotation = false
          avoid = slot
          stats.retries++
        }
      }
      throw new Error(`${kind} for ${user.username}: no server answered in 4 attempts`)
    }

    const csrf = async (user: User): Promise<string> => {
      if (user.csrfToken) return user.csrfToken
      const res = await send(user, 'csrf', '/auth/csrf')
      const token = res.status === 200 ? (JSON.parse(res.text) as { csrfToken?: string }).csrfToken : undefined
      if (!token) throw new Unexpected(`csrf for ${user.username}: status ${res.status}, body ${res.text.slice(0, 200)}`)
      user.csrfToken = token
      return token
    }

    const checkSession = (user: User, text: string, what: string): void => {
      const session = JSON.parse(text) as { user?: { id?: string; email?: string } } | null
      if (user.signedIn) {
        if (!session) {
          stats.lost++
          throw new Unexpected(`${what} for ${user.username}: signed in, but read no session (lost)`)
        }
        if (session.user?.email !== user.email || session.user?.id !== `soak-user-${user.n}`) throw new Unexpected(`${what} for ${user.username}: read someone else's session ${text.slice(0, 200)}`)
      } else if (session !== null) {
        stats.resurrected++
        throw new Unexpected(`${what} for ${user.username}: signed out, but read a session ${text.slice(0, 200)}`)
      }
    }

    const actions = {
      signIn: async (user: User) => {
        const csrfToken = await csrf(user)
        user.signInTimes.push(Date.now())
        const res = await send(user, 'sign-in', '/auth/callback/credentials', form({ csrfToken, username: user.username, password: `${user.username}-pw`, callbackUrl: '/app' }))
        if (res.status !== 302 || !res.location || res.location.includes('error=') || !sessionToken(user.jar)) {
          throw new Unexpected(`sign-in for ${user.username}: status ${res.status}, location ${res.location}, ${sessionToken(user.jar) ? 'a' : 'no'} session cookie`)
        }
        user.signedIn = true
      },
      read: async (user: User) => {
        const res = await send(user, 'session read', '/auth/session')
        if (res.status !== 200) throw new Unexpected(`session read for ${user.username}: status ${res.status} ${res.text.slice(0, 200)}`)
        checkSession(user, res.text, 'session read')
      },
      update: async (user: User) => {
        const csrfToken = await csrf(user)
        const res = await send(user, 'session update', '/auth/session', {
          method: 'POST',
          body: JSON.stringify({ csrfToken, data: { theme: Math.random() < 0.5 ? 'dark' : 'light' } }),
          headers: { 'content-type': 'application/json' },
        })
        if (res.status !== 200) throw new Unexpected(`session update for ${user.username}: status ${res.status} ${res.text.slice(0, 200)}`)
        checkSession(user, res.text, 'session update')
      },
      signOut: async (user: User) => {
        const csrfToken = await csrf(user)
        const token = sessionToken(user.jar)!
        const res = await send(user, 'sign-out', '/auth/signout', form({ csrfToken }))
        if (res.status !== 302 || sessionToken(user.jar)) throw new Unexpected(`sign-out for ${user.username}: status ${res.status}, session cookie ${sessionToken(user.jar) ? 'kept' : 'cleared'}`)
        user.signedIn = false
        user.ended.push(token)
      },
    }

    /** What a user does next: mostly reading the session; sometimes an update, a sign-out, a sign-in. */
    const step = async (user: User) => {
      const now = Date.now()
      user.signInTimes = user.signInTimes.filter((time) => now - time < rateWindowMs)
      const maySignIn = user.signInTimes.length < signInsPerWindow
      const r = Math.random()
      if (!user.signedIn) {
        if (user.signInTimes.length === 0 && user.ended.length === 0) return actions.signIn(user)
        return maySignIn && r < 0.6 ? actions.signIn(user) : actions.read(user)
      }
      if (r < 0.88) return actions.read(user)
      if (r < 0.97) return actions.update(user)
      // A user who could not sign in again within the rate limit stays: signs out only when free to come back.
      return maySignIn ? actions.signOut(user) : actions.read(user)
    }

    const users: User[] = Array.from({ length: options.users }, (_, n) => ({
      n,
      username: `soak-${n}`,
      email: `soak-${n}@example.com`,
      jar: new Jar(fetcher, survivor.origin),
      csrfToken: null,
      signedIn: false,
      signInTimes: [],
      interruptedSignIns: 0,
      ended: [],
      busy: false,
    }))

    // ---- the run
    const durationMs = options.seconds * 1000
    const start = Date.now()
    t0 = start
    const end = start + durationMs
    const killAt = start + durationMs / 2
    const warmUpAt = start + Math.max(3_000, durationMs * 0.1)
    // Each user is one browser, one request at a time; a worker takes a random idle one. With no
    // more workers than users, an idle user always exists.
    const concurrency = Math.min(options.concurrency, users.length)
    const nextIdle = (): User => {
      for (;;) {
        const user = users[Math.floor(Math.random() * users.length)]!
        if (!user.busy) return user
      }
    }
    // The load runs its time, and on until the restarted server has served a few seconds (a slow
    // restart on a busy machine must not leave it unexercised), but never a minute past its time.
    let aborted = false
    const running = () => {
      const now = Date.now()
      if (aborted || now >= end + 60_000) return false
      const backAt = victim.outages[0]?.backAt
      return now < end || backAt === undefined || now < backAt + 3_000
    }
    const worker = async () => {
      while (running()) {
        const user = nextIdle()
        user.busy = true
        try {
          await step(user)
        } catch (error) {
          if (error instanceof Unexpected) stats.unexpected(error.message)
          else stats.unexpected(`${user.username}: ${describe(error)}`)
        } finally {
          user.busy = false
        }
      }
    }

    const heapSamples: Array<{ at: number; bytes: number }> = []
    let warmUpHeap: number | null = null
    const orchestrate = async () => {
      const sleepUntil = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())))
      await sleepUntil(warmUpAt)
      warmUpHeap = await heapOf(survivor)
      heapSamples.push({ at: Date.now(), bytes: warmUpHeap })
      log(`soak: warm-up heap of A ${fixed(mb(warmUpHeap))} MB at ${at(Date.now())}`)
      await sleepUntil(killAt)
      const outage: Slot['outages'][number] = { killedAt: Date.now() }
      victim.outages.push(outage)
      const exited = new Promise((resolve) => victim.child.once('exit', resolve))
      victim.child.kill('SIGKILL')
      await exited
      log(`soak: killed B (SIGKILL) at ${at(outage.killedAt)}`)
      await sleepUntil(outage.killedAt + options.restartDelaySeconds * 1000)
      outage.restartedAt = Date.now()
      const again = await spawnServer(env, victim.port, 'B', serverStderr)
      Object.assign(victim, { child: again.child, heapWaiters: again.heapWaiters })
      outage.readyAt = Date.now()
      log(`soak: restarted B at ${at(outage.restartedAt)}, listening at ${at(outage.readyAt)}`)
    }
    // The survivor's heap through the run, for the trend: a sample every eighth of the run after warm-up.
    const sample = async () => {
      for (let k = 2; k < 8; k++) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + (durationMs * k) / 8 - Date.now())))
        heapSamples.push({ at: Date.now(), bytes: await heapOf(survivor) })
      }
    }

    const progress = setInterval(() => {
      const done = [...stats.latencies.values()].reduce((sum, l) => sum + l.length, 0)
      log(`soak: ${at(Date.now())}: ${done} requests, ${stats.expectedErrors} expected / ${stats.unexpectedErrors} unexpected errors`)
    }, 15_000)
    try {
      const abort = (error: unknown) => {
        aborted = true
        throw error
      }
      await Promise.all([orchestrate().catch(abort), sample().catch(abort), ...Array.from({ length: concurrency }, worker)])
    } finally {
      clearInterval(progress)
    }
    const loadEnded = Date.now()
    // What each user holds now, before the final reads (a read that finds no session clears the cookie).
    const heldAtEnd = new Map(users.map((user) => [user, sessionToken(user.jar)]))
    const endHeap = await heapOf(survivor)
    heapSamples.push({ at: Date.now(), bytes: endHeap })
    heapSamples.sort((x, y) => x.at - y.at)
    const restartedEndHeap = await heapOf(victim)

    // ---- verification: both servers back, every user read on each, the table against the users
    for (let i = 0; i < 40 && !slots.every((s) => s.inRotation); i++) await new Promise((resolve) => setTimeout(resolve, 250))
    if (!slots.every((s) => s.inRotation)) failures.push('server B never came back into rotation after its restart')
    let sessionsChecked = 0
    const verifyErrorsBefore = stats.unexpectedErrors
    for (const slot of slots) {
      const queue = [...users]
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          for (let user = queue.shift(); user; user = queue.shift()) {
            try {
              const res = await user.jar.request(`${slot.origin}/auth/session`)
              if (res.status !== 200) throw new Unexpected(`final read on ${slot.name} for ${user.username}: status ${res.status}`)
              checkSession(user, await res.text(), `final read on ${slot.name}`)
              sessionsChecked++
            } catch (error) {
              stats.unexpected(error instanceof Unexpected ? error.message : `final read on ${slot.name} for ${user.username}: ${describe(error)}`)
            }
          }
        }),
      )
    }
    // Every token a user signed out reads as no session on both servers.
    let endedReplayed = 0
    const lastEnded = users.flatMap((user) => (user.ended.length ? [{ user, token: user.ended.at(-1)! }] : []))
    for (const slot of slots) {
      for (const { user, token } of lastEnded) {
        const res = await fetch(`${slot.origin}/auth/session`, { headers: { cookie: `${sessionCookieName(user.jar) ?? 'latchkey.session-token'}=${encodeURIComponent(token)}` } })
        const body = await res.text()
        if (res.status !== 200 || body !== 'null') {
          stats.resurrected++
          stats.unexpected(`replayed ended token of ${user.username} on ${slot.name}: status ${res.status} ${body.slice(0, 200)}`)
        }
        endedReplayed++
      }
    }
    const pool = schema.pgPool(1)
    const { rows } = await pool.query<{ session_token: string; user_id: string }>('SELECT session_token, user_id FROM sessions')
    const { rows: userRows } = await pool.query<{ count: string }>("SELECT count(*) FROM users WHERE id LIKE 'soak-user-%'")
    await pool.end()
    // The table holds each cookie's SHA-256 (src/server/kernel/session-token.ts), never the cookie.
    const stored = (cookie: string) => createHash('sha256').update(cookie).digest('hex')
    const byToken = new Map(rows.map((row) => [row.session_token, row.user_id]))
    const held = new Set<string>()
    for (const user of users) {
      const token = heldAtEnd.get(user)
      if (user.signedIn !== Boolean(token)) stats.unexpected(`${user.username}: signed ${user.signedIn ? 'in' : 'out'} by the answers, but the cookie jar ${token ? 'holds' : 'lacks'} a session`)
      if (!user.signedIn || !token) continue
      held.add(stored(token))
      const owner = byToken.get(stored(token))
      if (owner === undefined) {
        stats.lost++
        stats.unexpected(`${user.username}: its session is not in the sessions table (lost)`)
      } else if (owner !== `soak-user-${user.n}`) stats.unexpected(`${user.username}: its session row belongs to ${owner}`)
      for (const ended of user.ended) {
        if (byToken.has(stored(ended))) {
          stats.resurrected++
          stats.unexpected(`${user.username}: a session it signed out is back in the sessions table`)
        }
      }
    }
    // Rows nobody holds: allowed only as sessions a kill swallowed the answer to (one per interrupted sign-in).
    const orphansByUser = new Map<string, number>()
    for (const row of rows) if (!held.has(row.session_token)) orphansByUser.set(row.user_id, (orphansByUser.get(row.user_id) ?? 0) + 1)
    let orphans = 0
    for (const [userId, count] of orphansByUser) {
      const user = users[Number(userId.replace('soak-user-', ''))]
      const allowed = user && userId === `soak-user-${user.n}` ? user.interruptedSignIns : 0
      orphans += Math.min(count, allowed)
      if (count > allowed) {
        stats.resurrected += count - allowed
        stats.unexpected(`${userId}: ${count - allowed} session row(s) in the table that no user holds and no interrupted sign-in explains`)
      }
    }
    const everSignedIn = users.filter((u) => u.signInTimes.length || u.ended.length || u.signedIn).length
    if (Number(userRows[0]!.count) !== everSignedIn) stats.unexpected(`users table holds ${userRows[0]!.count} soak users, expected ${everSignedIn} (one per user who signed in)`)
    const verifyErrors = stats.unexpectedErrors - verifyErrorsBefore

    // Server-side errors and warnings: none are expected (every request the users send is valid).
    const serverLines = serverStderr.filter((line) => /^[AB]: (error|warn)/.test(line))
    for (const line of serverLines.slice(0, 5)) stats.unexpected(`server log: ${line}`)
    if (serverLines.length > 5) stats.unexpectedErrors += serverLines.length - 5

    // ---- the summary
    const elapsed = (loadEnded - start) / 1000
    const all = [...stats.latencies.values()].flat().sort((a, b) => a - b)
    const lines: string[] = []
    lines.push(`soak: ${options.users} users, ${options.seconds} s, ${options.concurrency} requests in flight, 2 server processes on one PostgreSQL database (database sessions)`)
    lines.push('')
    lines.push(`  ${'requests'.padEnd(16)}${'count'.padStart(9)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`)
    for (const kind of kinds) {
      const list = stats.latencies.get(kind)!.sort((a, b) => a - b)
      lines.push(`  ${kind.padEnd(16)}${String(list.length).padStart(9)}${fixed(list.length / elapsed).padStart(9)}${fixed(percentile(list, 50), 2).padStart(9)}${fixed(percentile(list, 99), 2).padStart(9)}`)
    }
    lines.push(`  ${'all'.padEnd(16)}${String(all.length).padStart(9)}${fixed(all.length / elapsed).padStart(9)}${fixed(percentile(all, 50), 2).padStart(9)}${fixed(percentile(all, 99), 2).padStart(9)}`)
    lines.push('')
    const outage = victim.outages[0]
    lines.push(
      `  outage: B killed (SIGKILL) at ${at(outage?.killedAt)}, restarted at ${at(outage?.restartedAt)}, listening at ${at(outage?.readyAt)}, back in rotation at ${at(outage?.backAt)}; load ran ${fixed(elapsed)} s`,
    )
    lines.push(`  answered by: ${[...stats.byServer].map(([name, count]) => `${name} ${count}`).join(', ')}`)
    lines.push(`  errors: ${stats.expectedErrors} expected (connection failures against B while it was down, each retried on A), ${stats.unexpectedErrors} unexpected`)
    for (const sample of stats.samples) lines.push(`    ! ${sample}`)
    const signedIn = users.filter((u) => u.signedIn).length
    lines.push(
      `  sessions: ${signedIn} users signed in, ${users.length - signedIn} signed out at the end; ${sessionsChecked} final reads (every user on both servers), ${verifyErrors ? `${verifyErrors} wrong` : 'all as expected'}`,
    )
    lines.push(`  signed-out tokens replayed: ${endedReplayed} reads (last ended token of ${lastEnded.length} users, on both servers)`)
    lines.push(
      `  sessions table: ${rows.length} rows; ${held.size} held by signed-in users, ${orphans} orphaned by the kill (a sign-in whose answer the kill swallowed); lost ${stats.lost}, resurrected ${stats.resurrected}`,
    )
    const growth = warmUpHeap === null ? null : mb(endHeap - warmUpHeap)
    lines.push(
      `  heap of A (survivor, after forced GC): warm-up ${warmUpHeap === null ? '-' : fixed(mb(warmUpHeap), 2)} MB, end ${fixed(mb(endHeap), 2)} MB, growth ${growth === null ? '-' : `${growth >= 0 ? '+' : ''}${fixed(growth, 2)}`} MB (limit ${options.maxHeapGrowthMB} MB); samples ${heapSamples.map((s) => `${at(s.at)} ${fixed(mb(s.bytes))}`).join(', ')}`,
    )
    lines.push(`  heap of B (restarted at ${at(outage?.readyAt)}) at the end: ${fixed(mb(restartedEndHeap), 2)} MB`)

    if (stats.lost) failures.push(`${stats.lost} session(s) lost`)
    if (stats.resurrected) failures.push(`${stats.resurrected} session(s) resurrected`)
    if (stats.unexpectedErrors) failures.push(`${stats.unexpectedErrors} unexpected error(s)`)
    if (growth === null) failures.push('no warm-up heap figure')
    else if (growth > options.maxHeapGrowthMB) failures.push(`heap grew ${fixed(growth, 2)} MB, over the ${options.maxHeapGrowthMB} MB allowed`)
    if (!outage?.readyAt) failures.push('the kill and restart did not happen')
    lines.push('')
    lines.push(failures.length ? `  FAIL: ${failures.join('; ')}` : '  PASS: nothing lost, nothing resurrected, no unexpected errors, heap flat')

    return {
      ok: failures.length === 0,
      failures,
      summary: lines.join('\n'),
      requests: all.length,
      lost: stats.lost,
      resurrected: stats.resurrected,
      expectedErrors: stats.expectedErrors,
      unexpectedErrors: stats.unexpectedErrors,
      sessionsChecked,
      heapGrowthMB: growth,
    }
  } finally {
    if (probe) clearInterval(probe)
    await Promise.all(slots.map((slot) => stopServer(slot)))
    await schema.drop()
  }
}

class Unexpected extends Error {}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause as { code?: string; message?: string } | undefined
  return cause ? `${error.message} (${cause.code ?? cause.message})` : error.message
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`)
  return value
}

export function optionsFromEnv(): SoakOptions {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new Error('soak: DATABASE_URL is required, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- soak')
  return {
    databaseUrl,
    users: Math.floor(envNumber('SOAK_USERS', 200)),
    seconds: envNumber('SOAK_SECONDS', 180),
    concurrency: Math.floor(envNumber('SOAK_CONCURRENCY', 20)),
    restartDelaySeconds: envNumber('SOAK_RESTART_DELAY', 3),
    maxHeapGrowthMB: envNumber('SOAK_MAX_HEAP_GROWTH_MB', 8),
    log: (line) => console.log(line),
  }
}

/** `npm run bench -- soak`: prints the summary; a failed run sets a non-zero exit code. */
export async function run(): Promise<void> {
  const result = await soak(optionsFromEnv())
  console.log(result.summary)
  if (!result.ok) process.exitCode = 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run()
