/**
 * Many instances, as a team runs them (issue 46): latchkey processes (test/support/server-process.ts)
 * behind haproxy, which checks each one's readiness route; one PostgreSQL primary with a streaming
 * replica, reached through one address that a failover moves (a TCP forwarder standing for a
 * virtual IP or Patroni's HAProxy); rate limits in one Redis; `trustProxy: 1`, so the client
 * address is the one haproxy saw. test/integration/cluster.test.ts and `npm run bench -- cluster`
 * both start it here, run the same mixed load of many users through the balancer, and inject the
 * same faults: kill -9 of a process, a PostgreSQL restart, a failover, a Redis restart, SIGTERM.
 *
 * Everything it starts is recorded under /tmp/latchkey-<name>/, and a run killed before its
 * clean-up leaves nothing for the next: what is recorded there, and clusters of the same names,
 * are ended first. Needs root, PostgreSQL's server binaries, redis-server and /usr/sbin/haproxy.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'
import { freePort } from './free-port.js'
import { createPgCluster, createReplica, type PgCluster, type PgReplica } from './pg-cluster.js'
import { startRedis, stopRedis } from './redis-server.js'
import { startServer, type SentMail, type ServerProcess } from './server-processes.js'
import { keepAliveClient, type Answer } from './steady-load.js'

export const clusterSecret = 'cluster-secret-0123456789-abcdef-0123456789'
/** The origin the browser sees: every process is "behind one load balancer" at this address. */
export const publicOrigin = 'http://app.test'
/** How long SIGTERM's drain keeps a process answering with readiness failing: past haproxy's inter × fall (250 ms × 2). */
export const drainMs = 1500
const haproxyBinary = '/usr/sbin/haproxy'
const forwarderScript = fileURLToPath(new URL('./tcp-forwarder.ts', import.meta.url))

export interface ClusterOptions {
  /** Names the PostgreSQL clusters (`<name>`, `<name>r`) and the state folder. */
  name: string
  /** The primary's port; the replica's is the next. */
  pgPort: number
  redisPort: number
  /** latchkey processes; default 3 (A, B, C). */
  processes?: number
  /** Hears each step of the start, with its time. */
  log?: (line: string) => void
}

/** One latchkey process, at a port it keeps across restarts (haproxy's configuration names it). */
export interface Member {
  name: string
  port: number
  origin: string
  server: ServerProcess
}

export interface Balancer {
  port: number
  child: ChildProcess
  /** Each backend's status as haproxy's stats say it (`UP`, `DOWN`, `UP 1/2`...), by server name (a, b, c). */
  status(): Promise<Map<string, string>>
  /** Resolves once haproxy has `server` (a, b, c) in that state. */
  waitFor(server: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

export interface Cluster {
  primary: PgCluster
  replica: PgReplica
  /** Where the data is now: the primary, or the replica once it was promoted. */
  current(): PgCluster
  members: Member[]
  balancer: Balancer
  /** Where the processes reach "the primary". */
  forwarder: { port: number; child: ChildProcess; point(port: number): Promise<void> }
  redis: { port: number; child: ChildProcess }
  clockFile: string
  /** Starts a member's process again at its port; resolves once it listens. */
  restart(member: Member): Promise<void>
  /** A new balancer over the first `count` members, in place of the one running. */
  balance(count: number): Promise<Balancer>
  /** Stops Redis (SIGTERM; it keeps nothing). */
  stopRedis(): Promise<void>
  /** Starts a new redis-server at its port, empty. */
  startRedis(): Promise<void>
  /** Forgets every rate-limit count (FLUSHALL), for a load that starts over. */
  resetLimits(): Promise<void>
  /** The email `to` is sent next, by whichever process sends it; `cancel()` when the request that would send it failed. */
  expectMail(to: string, kind?: string, timeoutMs?: number): { mail: Promise<SentMail>; cancel(): void }
  /** A query on the current primary. */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>
  /** Every error line the processes logged (`A: error ...`), restarts included. */
  errors(): string[]
  /** Ends everything it started and drops the clusters; safe to call more than once, or after a failed start. */
  stop(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// What a run started, for the next run to end when this one was killed before its clean-up.

function stateDir(name: string): string {
  return `/tmp/latchkey-${name}`
}

function remember(name: string, child: ChildProcess, marker: string): void {
  if (child.pid) appendFileSync(`${stateDir(name)}/pids`, `${child.pid} ${marker}\n`)
}

/** Ends what a killed run left (only processes whose command line still carries their marker), and empties the state folder. */
function endLeftovers(name: string): void {
  const file = `${stateDir(name)}/pids`
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const [pid, marker] = [Number(line.split(' ')[0]), line.slice(line.indexOf(' ') + 1)]
      let cmdline = ''
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
      } catch {
        continue
      }
      if (cmdline.includes(marker)) process.kill(pid, 'SIGKILL')
    }
  }
  rmSync(stateDir(name), { recursive: true, force: true })
  mkdirSync(stateDir(name), { recursive: true })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function ended(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

// ---------------------------------------------------------------------------------------------
// haproxy

function haproxyConfig(dir: string, port: number, backends: Member[]): string {
  return [
    'global',
    `    stats socket ${dir}/haproxy-${port}.sock mode 600 level admin`,
    '    maxconn 4096',
    'defaults',
    '    mode http',
    '    timeout connect 500ms',
    '    timeout client 30s',
    '    timeout server 10s',
    '    timeout http-keep-alive 10s',
    // A connection refused (a process just killed, before the check notices) is tried on another server.
    '    retries 2',
    '    option redispatch 1',
    '    option forwardfor',
    'frontend site',
    `    bind 127.0.0.1:${port}`,
    '    default_backend latchkey',
    'backend latchkey',
    '    balance roundrobin',
    '    option httpchk',
    '    http-check send meth GET uri /auth/health/ready',
    '    http-check expect status 200',
    '    default-server inter 250ms fall 2 rise 1',
    ...backends.map((m) => `    server ${m.name.toLowerCase()} 127.0.0.1:${m.port} check`),
    '',
  ].join('\n')
}

async function haproxyStats(socket: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const conn = connect(socket, () => conn.end('show stat\n'))
    conn.setEncoding('utf8')
    conn.on('data', (chunk: string) => (text += chunk))
    conn.on('end', () => resolve(text))
    conn.on('error', reject)
  })
}

async function startHaproxy(name: string, backends: Member[]): Promise<Balancer> {
  const dir = stateDir(name)
  const port = await freePort()
  const file = `${dir}/haproxy-${port}.cfg`
  writeFileSync(file, haproxyConfig(dir, port, backends))
  const child = spawn(haproxyBinary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  remember(name, child, file)
  const said: string[] = []
  createInterface({ input: child.stderr! }).on('line', (line) => said.push(line))
  const socket = `${dir}/haproxy-${port}.sock`
  const status = async () => {
    const lines = (await haproxyStats(socket)).split('\n').filter(Boolean)
    const header = lines[0]!.replace(/^# /, '').split(',')
    const [sv, st] = [header.indexOf('svname'), header.indexOf('status')]
    const states = new Map<string, string>()
    for (const line of lines.slice(1)) {
      const fields = line.split(',')
      if (fields[sv] !== 'FRONTEND' && fields[sv] !== 'BACKEND') states.set(fields[sv]!, fields[st]!)
    }
    return states
  }
  const waitFor = async (server: string, state: 'UP' | 'DOWN', timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${said.join('\n')}`)
      const now = await status().catch(() => undefined)
      if (now?.get(server) === state) return
      if (Date.now() > deadline) throw new Error(`haproxy: server ${server} not ${state} within ${timeoutMs} ms (${now ? [...now].join(', ') : 'no stats'}):\n${said.join('\n')}`)
      await sleep(50)
    }
  }
  const balancer: Balancer = { port, child, status, waitFor, stop: () => ended(child) }
  for (const member of backends) await waitFor(member.name.toLowerCase(), 'UP')
  return balancer
}

// ---------------------------------------------------------------------------------------------
// The forwarder: one address for "the primary"

async function startForwarder(name: string, target: number): Promise<Cluster['forwarder']> {
  const child = spawn(process.execPath, ['--import', 'tsx', forwarderScript, String(target)], { stdio: ['pipe', 'pipe', 'inherit'] })
  remember(name, child, forwarderScript)
  const lines = createInterface({ input: child.stdout! })
  const waiting: Array<(line: string) => void> = []
  lines.on('line', (line) => waiting.shift()?.(line))
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('tcp-forwarder did not answer within 30 s')), 30_000)
      waiting.push((line) => {
        clearTimeout(timer)
        resolve(line)
      })
    })
  const port = Number((await next()).split(' ')[1])
  return {
    port,
    child,
    point: async (to: number) => {
      const answer = next()
      child.stdin!.write(`point ${to}\n`)
      if ((await answer) !== `pointed ${to}`) throw new Error(`tcp-forwarder: expected "pointed ${to}"`)
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The cluster

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { name, pgPort, redisPort, processes = 3, log = () => {} } = options
  const began = Date.now()
  const step = <T>(what: string, promise: Promise<T>) => promise.then((value) => (log(`${what}: ${Date.now() - began} ms`), value))
  if (!existsSync(haproxyBinary)) throw new Error(`startCluster: ${haproxyBinary} is missing; install Debian's haproxy (apt-get install haproxy)`)
  endLeftovers(name)
  const dir = stateDir(name)
  const clockFile = `${dir}/clock-offset`
  writeFileSync(clockFile, '0')
  const started: Partial<Cluster> & { members: Member[] } = { members: [] }
  /** Every process started, restarts included, with its member's name. */
  const spawned: Array<{ name: string; server: ServerProcess }> = []
  let promoted = false
  const mailListeners = new Set<(mail: SentMail) => void>()

  const stop = async () => {
    await Promise.all([...spawned.map(({ server }) => ended(server.child)), ended(started.balancer?.child), ended(started.redis?.child), ended(started.forwarder?.child)])
    await Promise.all([started.primary?.drop(), started.replica?.drop()])
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    // All at once: the replica makes its cluster while the primary starts, then copies it; the
    // processes start once the primary, its address and Redis are there. Each part is recorded as
    // it comes, so that a failure of one stops the others.
    const primaryStarting = step('PostgreSQL primary', createPgCluster(name, pgPort)).then((primary) => (started.primary = primary))
    const redisStarting = step('Redis', startRedis(redisPort)).then((child) => {
      remember(name, child, `redis-server 127.0.0.1:${redisPort}`)
      started.redis = { port: redisPort, child }
    })
    const forwarderStarting = step('forwarder', startForwarder(name, pgPort)).then((forwarder) => (started.forwarder = forwarder))
    const env = async () => ({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${(await forwarderStarting).port}/postgres`,
      AUTH_SECRET: clusterSecret,
      LATCHKEY_ORIGIN: publicOrigin,
      LATCHKEY_CLOCK_FILE: clockFile,
      LATCHKEY_DRAIN_MS: String(drainMs),
      LATCHKEY_SOAK_USERS: '1',
      LATCHKEY_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      LATCHKEY_TRUST_PROXY: '1',
      LATCHKEY_PASSWORD: '1',
      LATCHKEY_PASSKEY: '1',
    })
    const spawnMember = async (memberName: string, port: number) => {
      const server = await startServer({ ...(await env()), LATCHKEY_PORT: String(port) })
      remember(name, server.child, 'server-process.ts')
      server.onMail.add((mail) => mailListeners.forEach((listener) => listener(mail)))
      spawned.push({ name: memberName, server })
      return server
    }
    const membersStarting = async () => {
      await Promise.all([primaryStarting, redisStarting, forwarderStarting])
      const names = ['A', 'B', 'C', 'D', 'E'].slice(0, processes)
      const ports = await Promise.all(names.map(() => freePort()))
      // All at once, on the empty database: the migration lock lets one migrate.
      const servers = await step(`${processes} latchkey processes`, Promise.all(names.map((memberName, i) => spawnMember(memberName, ports[i]!))))
      started.members.push(...names.map((memberName, i) => ({ name: memberName, port: ports[i]!, origin: `http://127.0.0.1:${ports[i]}`, server: servers[i]! })))
      started.balancer = await step('haproxy, every process UP', startHaproxy(name, started.members))
    }
    const parts = await Promise.allSettled([
      primaryStarting,
      redisStarting,
      forwarderStarting,
      step('its streaming replica', createReplica(primaryStarting, `${name}r`, pgPort + 1)).then((replica) => (started.replica = replica)),
      membersStarting(),
    ])
    const failure = parts.find((part) => part.status === 'rejected')
    if (failure) throw failure.reason
    const [primary, replica, forwarder] = [started.primary!, started.replica!, started.forwarder!]

    const cluster: Cluster = {
      primary,
      replica,
      current: () => (promoted ? replica : primary),
      members: started.members,
      balancer: started.balancer!,
      forwarder,
      redis: started.redis!,
      clockFile,
      restart: async (member) => {
        member.server = await spawnMember(member.name, member.port)
      },
      balance: async (count) => {
        await cluster.balancer.stop()
        cluster.balancer = started.balancer = await startHaproxy(name, started.members.slice(0, count))
        return cluster.balancer
      },
      stopRedis: () => stopRedis(cluster.redis.child, 'SIGTERM'),
      startRedis: async () => {
        const child = await startRedis(redisPort)
        remember(name, child, `redis-server 127.0.0.1:${redisPort}`)
        cluster.redis = started.redis = { port: redisPort, child }
      },
      resetLimits: async () => {
        const client = new Redis(`redis://127.0.0.1:${redisPort}`)
        try {
          await client.flushall()
        } finally {
          client.disconnect()
        }
      },
      expectMail: (to, kind = 'email', timeoutMs = 10_000) => {
        let listener: (mail: SentMail) => void = () => {}
        let timer: NodeJS.Timeout | undefined
        const mail = new Promise<SentMail>((resolve, reject) => {
          listener = (sent) => {
            if (sent.to !== to || sent.kind !== kind) return
            cancel()
            resolve(sent)
          }
          mailListeners.add(listener)
          timer = setTimeout(() => {
            cancel()
            reject(new Error(`no ${kind} email to ${to} within ${timeoutMs} ms`))
          }, timeoutMs)
        })
        const cancel = () => {
          clearTimeout(timer)
          mailListeners.delete(listener)
        }
        // A cancelled wait rejects nobody; one left waiting fails its awaiter only.
        mail.catch(() => {})
        return { mail, cancel }
      },
      query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
        const client = new pg.Client({ connectionString: cluster.current().url })
        await client.connect()
        try {
          return (await client.query<T>(sql, params)).rows
        } finally {
          await client.end()
        }
      },
      errors: () => spawned.flatMap(({ name: member, server }) => server.stderr.filter((line) => line.startsWith('error')).map((line) => `${member}: ${line}`)),
      stop,
    }
    // The failover's promotion makes the replica "the primary" for every later query.
    const promote = replica.promote
    replica.promote = async () => {
      await promote()
      promoted = true
    }
    return cluster
  } catch (error) {
    await stop().catch(() => {})
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Many users, each a browser: its own client address, its own cookies, one request at a time.

export const sessionCookie = 'latchkey.session-token'
const form = { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' }

export type Kind = 'session read' | 'csrf' | 'credentials sign-in' | 'email sign-in' | 'email code' | 'sign-out'

export interface LoadAnswer extends Answer {
  kind: Kind
}

export interface LoadUser {
  n: number
  /** How it signs in: credentials (soak-<n>, as server-process.ts's LATCHKEY_SOAK_USERS has them) or an email code (mail-<n>@example.com). */
  way: 'credentials' | 'email'
  username: string
  email: string
  /** The user id a session of this user names; for email users, learnt from the first session read. */
  id?: string
  address: string
  cookies: Map<string, string>
  csrfToken?: string
  /** What its answers say: signed in, out, or not known (a sign-out whose answer failed may or may not have landed). */
  state: 'in' | 'out' | 'unknown'
  /** Session tokens it signed out (the sign-out was answered): none may read as a session again. */
  ended: string[]
  /** Sign-ins tried, answered or not: what the rate limits count (see `mayAsk`). */
  asks: number
  busy: boolean
}

/** The `n`th address of 127.`block`.0.0/16 (none ending in .0 or .255): a client of its own on the loopback interface. */
export const loopback = (block: number, n: number) => `127.${block}.${Math.floor(n / 250) % 256}.${(n % 250) + 1}`

/** `count` users from number `first` on, half of each way, every one from its own loopback address (127.1.x.y). */
export function createUsers(count: number, first = 0): LoadUser[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i
    return {
      n,
      way: n % 2 ? 'email' : 'credentials',
      username: `soak-${n}`,
      email: n % 2 ? `mail-${n}@example.com` : `soak-${n}@example.com`,
      id: n % 2 ? undefined : `soak-user-${n}`,
      address: loopback(1, n),
      cookies: new Map(),
      state: 'out',
      ended: [],
      asks: 0,
      busy: false,
    } satisfies LoadUser
  })
}

const cookieHeader = (user: LoadUser) => [...user.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

function keepCookies(user: LoadUser, answer: Answer): void {
  for (const line of answer.setCookies) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)]
    if (/Max-Age=0/i.test(line) || /Expires=Thu, 01 Jan 1970/i.test(line)) user.cookies.delete(name)
    else user.cookies.set(name, value)
  }
}

/** 2xx or 3xx. */
const ok = (answer: Answer) => answer.status !== undefined && answer.status < 400
/** No answer, or a 5xx: what a fault may cause, and nothing else may. */
export const failed = (answer: Answer) => answer.error !== undefined || (answer.status ?? 0) >= 500

/** The table keeps each session cookie's SHA-256 (src/server/kernel/session-token.ts). */
export const storedToken = (cookie: string) => createHash('sha256').update(decodeURIComponent(cookie)).digest('hex')

/**
 * The mixed load through the balancer at `port`: `concurrency` requests in flight, each from an
 * idle user picked at random. A signed-out user signs in (by credentials, or by email code read
 * from the process that sent it); a signed-in one reads its session (70 %), fetches a CSRF token
 * (15 %) or signs out (15 %). Every answer is kept; what breaks a rule (a session lost, a sign-out
 * undone, a 4xx to a valid request) is kept in `problems`.
 */
export class MixedLoad {
  readonly answers: LoadAnswer[] = []
  readonly problems: string[] = []
  private stopped = false
  private readonly clients = new Map<LoadUser, ReturnType<typeof keepAliveClient>>()
  readonly done: Promise<void>

  constructor(
    private readonly cluster: Cluster,
    readonly users: LoadUser[],
    concurrency: number,
    private readonly port = cluster.balancer.port,
  ) {
    this.done = Promise.all(Array.from({ length: Math.min(concurrency, users.length) }, () => this.worker())).then(() => {
      for (const client of this.clients.values()) client.close()
    })
  }

  /** Stops sending; resolves once the requests under way are answered. */
  async stop(): Promise<void> {
    this.stopped = true
    await this.done
  }

  private async worker(): Promise<void> {
    while (!this.stopped) {
      const idle = this.users.filter((u) => !u.busy)
      const user = idle[Math.floor(Math.random() * idle.length)]!
      user.busy = true
      try {
        await this.step(user)
      } catch (error) {
        this.problems.push(`${user.username}: ${(error as Error).message}`)
      } finally {
        user.busy = false
      }
    }
  }

  private async send(user: LoadUser, kind: Kind, path: string, fields?: Record<string, string>): Promise<LoadAnswer> {
    let client = this.clients.get(user)
    if (!client) this.clients.set(user, (client = keepAliveClient(this.port, 1, 10_000, user.address)))
    const headers: Record<string, string> = { ...(user.cookies.size && { cookie: cookieHeader(user) }), ...(fields && form) }
    const answer = await client.send(path, fields ? { method: 'POST', headers, body: new URLSearchParams(fields).toString() } : { headers })
    const kept: LoadAnswer = { ...answer, kind, body: ok(answer) ? '' : answer.body.slice(0, 200) }
    this.answers.push(kept)
    keepCookies(user, answer)
    if (!ok(answer) && !failed(answer)) this.problems.push(`${kind} for ${user.username}: ${answer.status} ${answer.body.slice(0, 200)}`)
    return { ...answer, kind }
  }

  private async csrf(user: LoadUser): Promise<string | undefined> {
    if (user.csrfToken) return user.csrfToken
    const answer = await this.send(user, 'csrf', '/auth/csrf')
    if (answer.status === 200) user.csrfToken = (JSON.parse(answer.body) as { csrfToken: string }).csrfToken
    return user.csrfToken
  }

  private async step(user: LoadUser): Promise<void> {
    // Each user keeps under the default limits of 15 minutes, counted in Redis: 5 emails to one
    // address, 30 credentials attempts from one client. Near them it stays signed in; at them, out.
    const limit = user.way === 'email' ? 5 : 30
    if (user.state === 'unknown' || (user.state === 'out' && user.asks >= limit)) return this.read(user)
    if (user.state === 'out') return this.signIn(user)
    const roll = Math.random()
    if (roll < 0.15 && user.asks < limit - 2) return this.signOut(user)
    if (roll < 0.3) {
      const answer = await this.send(user, 'csrf', '/auth/csrf')
      if (answer.status === 200) user.csrfToken = (JSON.parse(answer.body) as { csrfToken: string }).csrfToken
      return
    }
    await this.read(user)
  }

  /** Reads the session: it must be the user's while signed in, none while signed out. */
  async read(user: LoadUser): Promise<void> {
    const answer = await this.send(user, 'session read', '/auth/session')
    if (answer.status !== 200) return
    const session = JSON.parse(answer.body) as { user?: { id?: string; email?: string } } | null
    if (session && (session.user?.email !== user.email || (user.id && session.user?.id !== user.id))) {
      this.problems.push(`session read for ${user.username}: someone else's session ${answer.body.slice(0, 200)}`)
      return
    }
    if (session) user.id ??= session.user?.id
    if (user.state === 'in' && !session) this.problems.push(`session read for ${user.username}: signed in, read no session (lost)`)
    if (user.state === 'out' && session) this.problems.push(`session read for ${user.username}: signed out, read a session (sign-out undone)`)
    if (user.state === 'unknown') user.state = session ? 'in' : 'out'
  }

  /** Signs in, by the user's way; `state` follows what the answer says. */
  async signIn(user: LoadUser): Promise<void> {
    const csrfToken = await this.csrf(user)
    if (!csrfToken) return
    let answer: LoadAnswer
    user.asks++
    if (user.way === 'credentials') {
      answer = await this.send(user, 'credentials sign-in', '/auth/callback/credentials', { csrfToken, username: user.username, password: `${user.username}-pw` })
    } else {
      const expected = this.cluster.expectMail(user.email)
      const asked = await this.send(user, 'email sign-in', '/auth/signin/email', { csrfToken, email: user.email })
      if (!ok(asked)) return expected.cancel()
      const { code } = await expected.mail
      answer = await this.send(user, 'email code', '/auth/callback/email', { csrfToken, email: user.email, code: code! })
    }
    if (ok(answer) && !user.cookies.has(sessionCookie)) this.problems.push(`${answer.kind} for ${user.username}: answered ${answer.status} without a session cookie`)
    if (ok(answer)) user.state = 'in'
  }

  /** Signs out; a sign-out answered keeps its token in `ended`, one not answered leaves the state unknown. */
  async signOut(user: LoadUser): Promise<void> {
    const csrfToken = await this.csrf(user)
    const token = user.cookies.get(sessionCookie)
    if (!csrfToken || !token) return
    const answer = await this.send(user, 'sign-out', '/auth/signout', { csrfToken })
    if (ok(answer)) {
      if (user.cookies.has(sessionCookie)) this.problems.push(`sign-out for ${user.username}: answered ${answer.status} but kept the session cookie`)
      user.ended.push(token)
      user.state = 'out'
    } else user.state = 'unknown'
  }
}

// ---------------------------------------------------------------------------------------------
// Faults

export interface FaultWindow {
  name: string
  /** Local ms: the fault began; everything it broke was repaired and checked (`end`). */
  start: number
  end: number
  note: string
  /** The members whose process is not the one it was when the fault began. */
  restarted: string[]
  /** A sign-in sent straight to A while the fault lasted, where one tells something (the failover, Redis). */
  during?: Answer
}

/** A probe user of its own each time (no limit counts two probes), straight to one process, as a proxy would send it. */
let probes = 0
export const probeAnswers: Answer[] = []

/** A credentials sign-in straight to `member`: the write path (the session row, the rate-limit count). */
export async function probeSignIn(member: Member, timeoutMs = 5000): Promise<Answer> {
  const n = 900_000 + probes++
  const client = keepAliveClient(member.port, 1, timeoutMs)
  const headers = { 'x-forwarded-for': loopback(2, n) }
  try {
    const csrf = await client.send('/auth/csrf', { headers })
    probeAnswers.push(csrf)
    if (csrf.status !== 200) return csrf
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
    const cookie = csrf.setCookies.map((c) => c.split(';')[0]).join('; ')
    const answer = await client.send('/auth/callback/credentials', {
      method: 'POST',
      headers: { ...headers, ...form, cookie },
      body: new URLSearchParams({ csrfToken, username: `soak-${n}`, password: `soak-${n}-pw` }).toString(),
    })
    probeAnswers.push(answer)
    return answer
  } finally {
    client.close()
  }
}

/** Resolves once every member answers readiness 200 and a sign-in straight to it succeeds. */
export async function recovered(cluster: Cluster, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  await Promise.all(
    cluster.members.map(async (member) => {
      for (;;) {
        const client = keepAliveClient(member.port, 1, 5000)
        const ready = await client.send('/auth/health/ready')
        client.close()
        probeAnswers.push(ready)
        if (ready.status === 200 && (await probeSignIn(member)).status === 200) return
        if (Date.now() > deadline) throw new Error(`${member.name} did not recover within ${timeoutMs} ms`)
        await sleep(100)
      }
    }),
  )
}

/**
 * The five faults, one after the other, each given `quietMs` of plain load after it; answers each
 * one's window. `log` hears what happens, as it happens.
 */
export async function injectFaults(cluster: Cluster, { quietMs = 1000, log = (_: string) => {} } = {}): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = []
  const pids = () => cluster.members.map((m) => m.server.child.pid)
  let during: Answer | undefined
  const fault = async (name: string, run: (start: number) => Promise<string>) => {
    const [start, before] = [Date.now(), pids()]
    during = undefined
    const note = await run(start)
    const restarted = cluster.members.filter((m, i) => m.server.child.pid !== before[i]).map((m) => m.name)
    windows.push({ name, start, end: Date.now(), note, restarted, during })
    log(`${name}: ${Date.now() - start} ms; ${note}`)
    await sleep(quietMs)
  }
  const [a, b] = cluster.members as [Member, Member]
  await sleep(quietMs)

  await fault('kill -9', async (start) => {
    a.server.child.kill('SIGKILL')
    await a.server.exited
    await cluster.balancer.waitFor('a', 'DOWN')
    const out = Date.now() - start
    await cluster.restart(a)
    await cluster.balancer.waitFor('a', 'UP')
    return `A out of rotation after ${out} ms (haproxy's check), started again, back in rotation`
  })

  await fault('PostgreSQL restart', async () => {
    await cluster.current().restart()
    await Promise.all([recovered(cluster), cluster.replica.streaming()])
    return 'pg_ctlcluster restart -m fast; every process recovered by itself, the replica streams again'
  })

  await fault('failover', async () => {
    // As a failover manager does: only a replica that streams is promoted. The primary, stopped,
    // sends it all its WAL first.
    await cluster.replica.streaming()
    await cluster.primary.stop()
    await cluster.replica.replayed()
    // The address moves to the replica before it is promoted: writes meet 25006 read-only.
    await cluster.forwarder.point(cluster.replica.port)
    during = await probeSignIn(a)
    await cluster.replica.promote()
    await recovered(cluster)
    return `primary stopped, address moved to the replica, a sign-in there before promotion answered ${during.status}, promoted`
  })

  await fault('Redis restart', async () => {
    await cluster.stopRedis()
    during = await probeSignIn(a)
    await cluster.startRedis()
    await recovered(cluster)
    return `redis-server stopped (a sign-in meanwhile answered ${during.status} in ${during.end - during.at} ms) and started empty; every process reconnected by itself`
  })

  await fault('SIGTERM', async () => {
    b.server.child.kill('SIGTERM')
    const code = await b.server.exited
    await cluster.restart(b)
    await cluster.balancer.waitFor('b', 'UP')
    return `B drained ${drainMs} ms and exited ${code}, started again, back in rotation`
  })
  return windows
}

/** Per fault: its length, the requests sent in it, and those that failed (5xx or no answer). */
export function faultSummary(windows: FaultWindow[], answers: Answer[]): Array<{ window: FaultWindow; requests: number; failed: number; failedFor: number }> {
  return windows.map((window) => {
    const inside = answers.filter((a) => a.at <= window.end && a.end >= window.start)
    const bad = inside.filter(failed)
    const failedFor = bad.length ? Math.max(...bad.map((a) => a.end)) - Math.min(...bad.map((a) => a.at)) : 0
    return { window, requests: inside.length, failed: bad.length, failedFor }
  })
}

// ---------------------------------------------------------------------------------------------
// CPU: /proc/<pid>/stat, in seconds

/** /proc's unit of CPU time (USER_HZ), per second. */
export const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

function stat(pid: number): { ppid: number; own: number; children: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // After the name: state, ppid, ... utime (14th field of the line), stime, cutime, cstime.
  return { ppid: Number(fields[1]), own: (Number(fields[11]) + Number(fields[12])) / ticks, children: (Number(fields[13]) + Number(fields[14])) / ticks }
}

/** CPU seconds a process has used (all its threads). */
export const cpuOf = (pid: number | undefined) => (pid ? (stat(pid)?.own ?? 0) : 0)

/** CPU seconds of a PostgreSQL cluster: the postmaster, its children now, and those it has reaped (its cutime). */
export function postgresCpu(postmaster: number): number {
  let total = (stat(postmaster)?.own ?? 0) + (stat(postmaster)?.children ?? 0)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const s = stat(Number(entry))
    if (s?.ppid === postmaster) total += s.own + s.children
  }
  return total
}
