/**
 * Where rate-limit counts live. A store counts hits per key in fixed windows: the first hit of a
 * key opens a window of `windowSeconds`, later hits in it add one, and the first hit after it
 * ends opens a new one. One atomic call per hit, so several servers sharing a store count as one.
 */
import type { RateLimitHit, RateLimitStore } from '../../../core/rate-limit.js'

export type { RateLimitHit, RateLimitStore }

// The stores beside the adapters (src/adapters) share it too, so it lives in core.
export { checkHitArguments } from '../../../core/rate-limit.js'
