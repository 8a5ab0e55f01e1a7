/**
 * `AuthConfig.rateLimit` resolved once, and the one call a route makes. The default store follows
 * the adapter: the store an adapter offers (`rateLimitStore()`: the SQL adapter's own database, so
 * several servers on one database share their counts); else process memory, which is per server.
 */
import { configurationError } from '../../../core/errors.js'
import type { Adapter } from '../../../core/types.js'
import type { RateLimitOptions, ResolvedRateLimit } from '../../../core/rate-limit.js'
import { checkRateLimit, uncountedAttempt, type CountedAttempt } from './check.js'
import { defaultClientAddress, type GetClientAddress } from './client-address.js'
import { memoryRateLimitStore } from './memory.js'
import { builtInWords, countsFailures, resolveRateLimitRules, type RateLimitAction, type RateLimitActionSpec, type RateLimitRules } from './rules.js'
import type { RateLimitStore } from './store.js'

export type { RateLimitOptions }

export type { ResolvedRateLimit }

/** `false` turns rate limits off; `undefined` means the defaults. Throws a TypeError on bad rules. */
/** `registered`: the actions the instance's plugins count, beyond the built-in ones. */
/** `warn`: told once when the default address reading cannot tell clients apart. */
export function resolveRateLimit(
  options: RateLimitOptions | false | undefined,
  adapter?: Adapter,
  registered: Record<string, RateLimitActionSpec> = {},
  warn: (message: string) => void = () => {},
): ResolvedRateLimit | null {
  if (options === false) return null
  const given = options ?? {}
  if (given.getClientAddress !== undefined && typeof given.getClientAddress !== 'function') {
    throw configurationError('rateLimit.getClientAddress: expected a function (request) => address')
  }
  if (given.store !== undefined && typeof given.store?.hit !== 'function') throw configurationError('rateLimit.store: expected an object with hit(key, windowSeconds, now)')
  const rules = resolveRateLimitRules(given.rules, registered)
  if (given.store && typeof given.store.refund !== 'function' && countsFailures(rules)) {
    throw configurationError('rateLimit.store: the rules count failed sign-ins, which needs refund(key, now) on the store (see memoryRateLimitStore for one)')
  }
  const offered = (adapter as { rateLimitStore?: () => RateLimitStore } | undefined)?.rateLimitStore
  return {
    store: given.store ?? (typeof offered === 'function' ? offered.call(adapter) : memoryRateLimitStore()),
    rules,
    words: { ...builtInWords, ...Object.fromEntries(Object.entries(registered).map(([action, { label, accountName }]) => [action, { label, accountName }])) },
    getClientAddress: given.getClientAddress ?? defaultClientAddress(given.trustProxy ?? false, warn),
  }
}

/**
 * Counts this request for `action`; throws a RateLimitError (429) when past a limit. Answers the
 * counted attempt, whose `succeeded()` a credentials route calls when `authorize` accepts. No-op
 * when off.
 */
export async function enforceRateLimit(
  limits: ResolvedRateLimit | null | undefined,
  request: Request,
  action: RateLimitAction,
  account: string | readonly string[] | null | undefined,
  now: number,
): Promise<CountedAttempt> {
  if (!limits) return uncountedAttempt
  const client = (await limits.getClientAddress(request)) ?? null
  return checkRateLimit(limits.store, limits.rules, { action, account: account ?? null, client, words: limits.words[action] }, now)
}
