/**
 * Where rate-limit counts live. A store counts hits per key in fixed windows: the first hit of a
 * key opens a window of `windowSeconds`, later hits in it add one, and the first hit after it
 * ends opens a new one. One atomic call per hit, so several servers sharing a store count as one.
 */
import type { RateLimitHit, RateLimitStore } from '../../../core/rate-limit.js'

export type { RateLimitHit, RateLimitStore }

/** Throws a TypeError unless the arguments of `hit` are usable; shared by every store. */
export function checkHitArguments(key: string, windowSeconds: number, now: number): void {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`rate limit: expected a non-empty key, got ${JSON.stringify(key)}`)
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) throw new TypeError(`rate limit: expected windowSeconds > 0, got ${windowSeconds}`)
  if (!Number.isFinite(now)) throw new TypeError(`rate limit: expected now in milliseconds, got ${now}`)
}
