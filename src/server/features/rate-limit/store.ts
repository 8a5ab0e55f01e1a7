/**
 * Where rate-limit counts live. A store counts hits per key in fixed windows: the first hit of a
 * key opens a window of `windowSeconds`, later hits in it add one, and the first hit after it
 * ends opens a new one. One atomic call per hit, so several servers sharing a store count as one.
 */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number
  /** When the current window ends, in milliseconds since the epoch. */
  resetAt: number
}

export interface RateLimitStore {
  /** Counts one hit on `key` at `now` (milliseconds) and answers the window's count and end. */
  hit(key: string, windowSeconds: number, now: number): Promise<RateLimitHit>
  /**
   * Takes one hit back from `key`'s current window: the attempt turned out not to count (a correct
   * password, under a rule that counts failures). Without an open window nothing changes; the
   * count never goes below 0. Needed only by rules with `counts: 'failures'`.
   */
  refund?(key: string, now: number): Promise<void>
  /** Forgets `key`, for example after a successful sign-in. */
  reset?(key: string): Promise<void>
}

/** Throws a TypeError unless the arguments of `hit` are usable; shared by every store. */
export function checkHitArguments(key: string, windowSeconds: number, now: number): void {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`rate limit: expected a non-empty key, got ${JSON.stringify(key)}`)
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) throw new TypeError(`rate limit: expected windowSeconds > 0, got ${windowSeconds}`)
  if (!Number.isFinite(now)) throw new TypeError(`rate limit: expected now in milliseconds, got ${now}`)
}
