/** Rate limits for the sign-in routes: the store interface, the memory store, rules, the check, and the client address. The PostgreSQL and Redis stores are beside the adapters. */
export type { RateLimitHit, RateLimitStore } from './store.js'
export { memoryRateLimitStore, type MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory.js'
export { defaultRateLimitRules, resolveRateLimitRules, type RateLimitAction, type RateLimitRule, type RateLimitRules } from './rules.js'
export { accountKey, checkRateLimit, RateLimitError, RateLimitStoreError, RateLimitStoreUnavailable, type CountedAttempt, type RateLimitSubject } from './check.js'
export { defaultClientAddress, rememberClientAddress, type GetClientAddress } from './client-address.js'
export { enforceRateLimit, resolveRateLimit, type RateLimitOptions, type ResolvedRateLimit } from './config.js'
