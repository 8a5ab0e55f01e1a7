/**
 * latchkey/server: the sign-in service, a Web-standard handler for any fetch runtime. It imports
 * no `node:` module and its types need no @types/node; the node:http binding is `latchkey/node`.
 */
export { Latchkey, type Handler, type LatchkeyHandler } from './latchkey.js'
export type { GetSession, SessionOf } from './app/get-session.js'
export type { GetAccessToken } from './features/oauth/get-access-token.js'
export { AccessTokenError, type AccessTokenErrorCode } from './features/oauth/access-token.js'
export { withSession } from './app/with-session.js'
export { AuthError, MissingAdapterMethods, type ErrorType } from '../core/errors.js'
export type * from '../core/types.js'
export type { Language, PageMessages, Plural } from '../locales/index.js'
export { isDate } from '../core/types.js'
export {
  memoryRateLimitStore,
  type MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  type RateLimitAction,
  type RateLimitHit,
  type RateLimitOptions,
  type RateLimitRule,
  type RateLimitRules,
  type RateLimitStore,
  type GetClientAddress,
} from './kernel/rate-limit/index.js'
export { postgresRateLimitStore, type PostgresRateLimitStore, type PostgresRateLimitStoreOptions } from '../adapters/postgres/rate-limit-store.js'
export { redisRateLimitStore, type RedisLike, type RedisMultiLike, type RedisRateLimitStore, type RedisRateLimitStoreOptions } from '../adapters/redis-rate-limit.js'
