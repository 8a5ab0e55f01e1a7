/**
 * A shutdown that fails no request, for a node:http (or https) server behind a load balancer:
 *
 *     const server = http.createServer(toNodeHandler(auth)).listen(3000)
 *     gracefulShutdown(server, auth, { afterClose: () => adapter.close() })
 *
 * On SIGTERM: readiness answers 503 (`auth.drain()`) and every answer says `Connection: close`,
 * so the load balancer stops sending and keep-alive clients let go; after `drainMs` the server
 * stops taking connections, the requests under way finish (at most `timeoutMs`, then their
 * connections are cut), latchkey's after-answer work settles, `afterClose` runs, and the process ends.
 */
import type { Server as HttpServer, ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { LatchkeyHandler } from '../server/latchkey.js'

export interface GracefulShutdownOptions {
  /**
   * How long readiness fails, with the server still answering, before it stops taking
   * connections (ms): at least the load balancer's check interval times the failures it needs
   * to take a server out. Default 5000.
   */
  drainMs?: number
  /** The longest wait after that for the requests under way (ms); then their connections are cut. Default 10000. */
  timeoutMs?: number
  /** The signals that start it. Default `['SIGTERM']` (Ctrl-C's SIGINT keeps node's own: at once); `[]`: call `shutdown()` yourself. */
  signals?: NodeJS.Signals[]
  /** Runs once the server has closed and the after-answer work settled: close the database here. */
  afterClose?: () => unknown
  /** End the process when done: exit code 0, or 1 when connections had to be cut or `afterClose` threw. Default true. */
  exit?: boolean
}

export interface GracefulShutdown {
  /** Starts the shutdown now, as the signal would; resolves when it is done. Called again, the same promise. */
  shutdown(): Promise<void>
  /** Whether the shutdown has begun. */
  readonly draining: boolean
}

const sweepMs = 100

/** Wires the shutdown to `signals` and answers the handle; nothing happens until a signal or `shutdown()`. */
export function gracefulShutdown(server: HttpServer | HttpsServer, auth: Pick<LatchkeyHandler, 'drain' | 'settled'>, options: GracefulShutdownOptions = {}): GracefulShutdown {
  const { drainMs = 5000, timeoutMs = 10_000, signals = ['SIGTERM'], afterClose, exit = true } = options
  for (const [name, value] of Object.entries({ drainMs, timeoutMs })) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`gracefulShutdown: expected ${name} to be a number of milliseconds >= 0, got ${String(value)}`)
  }
  /** Answers not yet finished: at the drain's start they too get `Connection: close`. */
  const open = new Set<ServerResponse>()
  let draining = false
  let done: Promise<void> | undefined

  // First, before the app's own listener writes anything.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) return void res.setHeader('connection', 'close')
    open.add(res)
    res.once('close', () => open.delete(res))
  })

  const run = async (): Promise<boolean> => {
    draining = true
    auth.drain()
    for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close')
    open.clear()
    await new Promise((resolve) => setTimeout(resolve, drainMs))
    let cut = false
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    // A keep-alive connection whose last answer went out before the drain is idle now, or soon.
    server.closeIdleConnections()
    const sweep = setInterval(() => server.closeIdleConnections(), sweepMs)
    const deadline = setTimeout(() => {
      cut = true
      server.closeAllConnections()
    }, timeoutMs)
    await closed
    clearInterval(sweep)
    clearTimeout(deadline)
    if (cut) console.error(`latchkey: gracefulShutdown cut the connections still open after ${timeoutMs} ms`)
    await auth.settled()
    await afterClose?.()
    return !cut
  }

  const shutdown = () =>
    (done ??= run().then(
      (clean) => {
        if (exit) process.exit(clean ? 0 : 1)
      },
      (error: unknown) => {
        console.error('latchkey: gracefulShutdown failed:', error)
        if (exit) process.exit(1)
        throw error
      },
    ))

  // A second signal changes nothing (`npm start` passes on the one its process group got too).
  for (const signal of signals) process.on(signal, () => void shutdown().catch(() => {}))
  return {
    shutdown,
    get draining() {
      return draining
    },
  }
}
