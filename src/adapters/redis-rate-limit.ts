/**
 * The Redis store, for an ioredis-compatible client (ioredis, or anything with `multi()` that
 * queues `set`, `incr` and `pttl` and answers `exec()` with `[error, result]` pairs). One MULTI per
 * hit: `SET key 0 PX window NX` opens a window only when none is open, `INCR` counts (it keeps the
 * expiry), `PTTL` tells when the window ends. No Lua, and it runs on any Redis since 2.6.12 and on
 * Valkey, KeyDB and Dragonfly. A refund is one MULTI of `DECR` and `PTTL`: a key that had no window
 * (DECR made it, so it has no expiry) is deleted again, and a count taken below 0 (more refunds
 * than hits) is put back to 0. The window's clock is Redis's own, one clock for every server;
 * `now` only turns the remaining time into `resetAt`.
 */
import { checkHitArguments, type RateLimitStore } from '../core/rate-limit.js'

type ExecResult = Array<[Error | null, unknown]> | null

/** The part of an ioredis client this store uses. */
export interface RedisLike {
  multi(): RedisMultiLike
  pexpire(key: string, milliseconds: number): Promise<unknown>
  del(key: string): Promise<unknown>
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
}

export interface RedisRateLimitStore extends RateLimitStore {
  refund(key: string, now: number): Promise<void>
  reset(key: string): Promise<void>
}

export function redisRateLimitStore(client: RedisLike, options: RedisRateLimitStoreOptions = {}): RedisRateLimitStore {
  if (!client || typeof client.multi !== 'function') throw new TypeError('redisRateLimitStore: expected an ioredis-compatible client with multi()')
  const prefix = options.prefix ?? 'latchkey:rl:'
  return {
    async hit(key, windowSeconds, now) {
      checkHitArguments(key, windowSeconds, now)
      const name = prefix + key
      const windowMs = Math.ceil(windowSeconds * 1000)
      const results = checked(await client.multi().set(name, 0, 'PX', windowMs, 'NX').incr(name).pttl(name).exec(), 'hit')
      const count = Number(results[1]![1])
      let remaining = Number(results[2]![1])
      if (remaining < 0) {
        // A key without an expiry (written by something else): give it this window rather than keep it forever.
        await client.pexpire(name, windowMs)
        remaining = windowMs
      }
      return { count, resetAt: now + remaining }
    },
    async refund(key) {
      const name = prefix + key
      const results = checked(await client.multi().decr(name).pttl(name).exec(), 'refund')
      if (Number(results[1]![1]) < 0) await client.del(name)
      else if (Number(results[0]![1]) < 0) checked(await client.multi().incr(name).exec(), 'refund')
    },
    async reset(key) {
      await client.del(prefix + key)
    },
  }
}

/** The results of an `exec()`, or an Error naming what Redis refused. */
function checked(results: ExecResult, what: string): Array<[Error | null, unknown]> {
  if (!results) throw new Error(`redisRateLimitStore: the MULTI was aborted`)
  const failed = results.find(([error]) => error)
  if (failed) throw new Error(`redisRateLimitStore: Redis refused the ${what}: ${failed[0]!.message}`, { cause: failed[0] })
  return results
}
