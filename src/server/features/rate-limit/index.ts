/** Rate limits for the sign-in routes: stores, rules, the check, and the client address. */
export type { RateLimitHit, RateLimitStore } from './store.js'
export { memoryRateLimitStore, type MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory.js'
export { postgresRateLimitStore, type PostgresRateLimitStore, type PostgresRateLimitStoreOptions } from './postgres.js'
export { redisRateLimitStore, type RedisLike, type RedisMultiLike, type RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis.js'
export { defaultRateLimitRules, resolveRateLimitRules, type RateLimitAction, type RateLimitRule, type RateLimitRules } from './rules.js'
export { accountKey, checkRateLimit, RateLimitError, type CountedAttempt, type RateLimitSubject } from './check.js'
export { defaultClientAddress, rememberClientAddress, type GetClientAddress } from './client-address.js'
export { enforceRateLimit, resolveRateLimit, type RateLimitOptions, type ResolvedRateLimit } from './config.js'
