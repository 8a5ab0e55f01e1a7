/**
 * The Redis store, for an ioredis-compatible client (ioredis, or anything with `multi()` that
 * queues `set`, `incr` and `pttl` and answers `exec()` with `[error, result]` pairs). One MULTI per
 * hit: `SET key 0 PX window NX` opens a window only when none is open, `INCR` counts (it keeps the
 * expiry), `PTTL` tells when the window ends. No Lua, and it runs on any Redis since 2.6.12 and on
 * Valkey, KeyDB and Dragonfly. A refund is one MULTI of `DECR` and `PTTL`: a key that had no window
 * (DECR made it, so it has no expiry) is deleted again, and a count taken below 0 (more refunds
 * than hits) is put back to 0. The window's clock is Redis's own, one clock for every server;
 * `now` only turns the remaining time into `resetAt`.
 *
 * Every call answers within `timeout` (200 ms), or fails saying Redis did not answer: the server
 * then follows `rateLimit.whenStoreFails` (503 or uncounted) rather than hang with the request.
 * While ioredis is reconnecting (it does so by itself), a call waits for it to be ready within
 * that time and sends nothing before: a command left in ioredis's offline queue would run after
 * Redis is back, counting an attempt long since answered (each sign-in tried during the outage
 * would count as a failure once it ends).
 */
import { checkHitArguments, type RateLimitStore } from '../core/rate-limit.js'

type ExecResult = Array<[Error | null, unknown]> | null

/** The part of an ioredis client this store uses. */
export interface RedisLike {
  multi(): RedisMultiLike
  pexpire(key: string, milliseconds: number): Promise<unknown>
  del(key: string): Promise<unknown>
  /** ioredis's connection state (`ready`, `reconnecting`, …); without it every call is sent at once. */
  status?: string
  once?(event: 'ready', listener: () => void): unknown
  off?(event: 'ready', listener: () => void): unknown
}

export interface RedisMultiLike {
  set(key: string, value: string | number, px: 'PX', milliseconds: number, nx: 'NX'): RedisMultiLike
  incr(key: string): RedisMultiLike
  decr(key: string): RedisMultiLike
  pttl(key: string): RedisMultiLike
  exec(): Promise<ExecResult>
}

export interface RedisRateLimitStoreOptions {
  /** Put before every key, to share a Redis with other uses. Default "latchkey:rl:". */
  prefix?: string
  /** Milliseconds a call may take, waiting for a reconnection included; then it fails. Default 200. */
  timeout?: number
}

export interface RedisRateLimitStore extends RateLimitStore {
  refund(key: string, now: number): Promise<void>
  reset(key: string): Promise<void>
}

export function redisRateLimitStore(client: RedisLike, options: RedisRateLimitStoreOptions = {}): RedisRateLimitStore {
  if (!client || typeof client.multi !== 'function') throw new TypeError('redisRateLimitStore: expected an ioredis-compatible client with multi()')
  const prefix = options.prefix ?? 'latchkey:rl:'
  const timeout = options.timeout ?? 200
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError(`redisRateLimitStore: expected timeout in milliseconds > 0, got ${timeout}`)
  const call = <T>(what: string, send: () => Promise<T>) => withinTime(client, timeout, what, send)
  return {
    async hit(key, windowSeconds, now) {
      checkHitArguments(key, windowSeconds, now)
      const name = prefix + key
      const windowMs = Math.ceil(windowSeconds * 1000)
      const results = checked(await call('hit', () => client.multi().set(name, 0, 'PX', windowMs, 'NX').incr(name).pttl(name).exec()), 'hit')
      const count = Number(results[1]![1])
      let remaining = Number(results[2]![1])
      if (remaining < 0) {
        // A key without an expiry (written by something else): give it this window rather than keep it forever.
        await call('hit', () => client.pexpire(name, windowMs))
        remaining = windowMs
      }
      return { count, resetAt: now + remaining }
    },
    async refund(key) {
      const name = prefix + key
      const results = checked(await call('refund', () => client.multi().decr(name).pttl(name).exec()), 'refund')
      if (Number(results[1]![1]) < 0) await call('refund', () => client.del(name))
      else if (Number(results[0]![1]) < 0) checked(await call('refund', () => client.multi().incr(name).exec()), 'refund')
    },
    async reset(key) {
      await call('reset', () => client.del(prefix + key))
    },
  }
}

// ioredis runs where setImmediate is (Node, Bun); a stand-in keeps the module loadable anywhere.
const afterIo: (run: () => void) => unknown = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate ?? ((run) => setTimeout(run, 0))

/** ioredis's states from which it comes back by itself, soon: worth waiting for within the timeout. */
const reconnecting = new Set(['connecting', 'connect', 'reconnecting', 'close'])

/**
 * `send()`'s answer, or an Error once `timeout` ms have passed. A client that is reconnecting is
 * waited for (within the same time) before anything is sent; one that gave up (`end`) or that
 * says no state is sent to at once, and answers or fails as it does.
 */
async function withinTime<T>(client: RedisLike, timeout: number, what: string, send: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let onReady: (() => void) | undefined
  let late = false
  const expired = new Promise<never>((_, reject) => {
    // After the I/O callbacks due (setImmediate): a process that stalled past the time (a long
    // task, a GC pause) reads an answer that arrived meanwhile rather than fail it.
    const giveUp = () => {
      late = true
      reject(new Error(`redisRateLimitStore: Redis did not answer the ${what} within ${timeout} ms (${client.status ? `connection ${client.status}` : 'no answer'})`))
    }
    timer = setTimeout(() => afterIo(giveUp), timeout)
  })
  const answer = (async () => {
    if (client.status && reconnecting.has(client.status) && client.once) await new Promise<void>((resolve) => client.once!('ready', (onReady = resolve)))
    if (late) throw new Error('redisRateLimitStore: not sent, the time was up')
    return send()
  })()
  // The loser of the race below is settled later: its failure is no one's to hear.
  answer.catch(() => {})
  try {
    return await Promise.race([answer, expired])
  } finally {
    clearTimeout(timer)
    if (onReady) client.off?.('ready', onReady)
  }
}

/** The results of an `exec()`, or an Error naming what Redis refused. */
function checked(results: ExecResult, what: string): Array<[Error | null, unknown]> {
  if (!results) throw new Error(`redisRateLimitStore: the MULTI was aborted`)
  const failed = results.find(([error]) => error)
  if (failed) throw new Error(`redisRateLimitStore: Redis refused the ${what}: ${failed[0]!.message}`, { cause: failed[0] })
  return results
}
