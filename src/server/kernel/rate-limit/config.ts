/**
 * `AuthConfig.rateLimit` resolved once, and the one call a route makes. The default store follows
 * the adapter: the store an adapter offers (`rateLimitStore()`: the SQL adapter's own database, so
 * several servers on one database share their counts); else process memory, which is per server.
 */
import type { Logger } from '../../../core/config.js'
import { configurationError } from '../../../core/errors.js'
import type { Adapter } from '../../../core/types.js'
import type { RateLimitOptions, ResolvedRateLimit } from '../../../core/rate-limit.js'
import { createLogger } from '../logger.js'
import { checkRateLimit, RateLimitError, RateLimitStoreError, RateLimitStoreUnavailable, uncountedAttempt, type CountedAttempt } from './check.js'
import { defaultClientAddress, type GetClientAddress } from './client-address.js'
import { memoryRateLimitStore } from './memory.js'
import { storeOutage } from './outage.js'
import { builtInWords, countsFailures, resolveRateLimitRules, resolveWhenStoreFails, type RateLimitAction, type RateLimitActionSpec, type RateLimitRules } from './rules.js'
import type { RateLimitStore } from './store.js'

export type { RateLimitOptions }

export type { ResolvedRateLimit }

/**
 * `false` turns rate limits off; `undefined` means the defaults. Throws a Configuration error on
 * bad options. `registered`: the actions the instance's plugins count, beyond the built-in ones;
 * `logger`: where a store's outage is said, and, once, that the default address reading cannot
 * tell clients apart.
 */
export function resolveRateLimit(
  options: RateLimitOptions | false | undefined,
  adapter?: Adapter,
  registered: Record<string, RateLimitActionSpec> = {},
  logger: Logger = createLogger(undefined),
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
  const whenStoreFails = resolveWhenStoreFails(given.whenStoreFails, rules, registered)
  const offered = (adapter as { rateLimitStore?: () => RateLimitStore } | undefined)?.rateLimitStore
  return {
    store: given.store ?? (typeof offered === 'function' ? offered.call(adapter) : memoryRateLimitStore()),
    rules,
    words: { ...builtInWords, ...Object.fromEntries(Object.entries(registered).map(([action, { label, accountName }]) => [action, { label, accountName }])) },
    getClientAddress: given.getClientAddress ?? defaultClientAddress(given.trustProxy ?? false, (message) => logger.warn(message)),
    whenStoreFails,
    outage: storeOutage(logger, whenStoreFails),
  }
}

/**
 * Counts this request for `action`; throws a RateLimitError (429) when past a limit. Answers the
 * counted attempt, whose `succeeded()` a credentials route calls when `authorize` accepts. No-op
 * when off. Where the store cannot count, the action's `whenStoreFails` decides: `closed` throws
 * a RateLimitStoreUnavailable (503), `open` answers an uncounted attempt; the outage is logged
 * once (outage.ts). A refund the store cannot take fails nothing: the attempt succeeded, and its
 * one failure stays counted.
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
  const { outage } = limits
  let attempt: CountedAttempt
  try {
    attempt = await checkRateLimit(limits.store, limits.rules, { action, account: account ?? null, client, words: limits.words[action] }, now)
  } catch (error) {
    if (error instanceof RateLimitError) outage.answered()
    if (!(error instanceof RateLimitStoreError)) throw error
    outage.failed(error.cause)
    if (limits.whenStoreFails[action] === 'open') return uncountedAttempt
    throw new RateLimitStoreUnavailable(limits.words[action] ?? { label: `${action} requests` })
  }
  outage.answered()
  return {
    succeeded: () =>
      attempt.succeeded().catch((error) => {
        if (!(error instanceof RateLimitStoreError)) throw error
        outage.failed(error.cause)
      }),
  }
}
