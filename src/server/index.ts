/** latchkey/server: the sign-in service. */
export { Latchkey, type Handler, type LatchkeyHandler } from './latchkey.js'
export type { GetSession, SessionOf, SessionResponse } from './app/get-session.js'
export type { GetAccessToken } from './app/get-access-token.js'
export { AccessTokenError, type AccessTokenErrorCode } from './features/oauth/access-token.js'
export { requireSession, type RequestWithSession } from './app/require-session.js'
export { withSession } from './app/with-session.js'
export { requireFreshSession } from './app/require-fresh-session.js'
export { toNodeHandler, toRequest } from './node.js'
export { AuthError, MissingAdapterMethods, type ErrorType } from '../core/errors.js'
export { timingHeader, parseTiming, type SessionTiming } from '../core/session-rule.js'
export type * from '../core/types.js'
export { isDate } from '../core/types.js'
export {
  memoryRateLimitStore,
  postgresRateLimitStore,
  redisRateLimitStore,
  type MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  type PostgresRateLimitStore,
  type PostgresRateLimitStoreOptions,
  type RedisLike,
  type RedisMultiLike,
  type RedisRateLimitStore,
  type RedisRateLimitStoreOptions,
  type RateLimitAction,
  type RateLimitHit,
  type RateLimitOptions,
  type RateLimitRule,
  type RateLimitRules,
  type RateLimitStore,
  type GetClientAddress,
} from './features/rate-limit/index.js'
