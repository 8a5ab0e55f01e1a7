/**
 * latchkey/server: the sign-in service, a Web-standard handler for any fetch runtime. It imports
 * no `node:` module and its types need no @types/node; the node:http binding is `latchkey/node`.
 */
export { Latchkey, type Handler, type LatchkeyHandler } from './latchkey.js'
export type { GetSession, SessionOf } from './app/get-session.js'
export type { GetAccessToken } from './features/oauth/get-access-token.js'
export { AccessTokenError, type AccessTokenErrorCode } from './features/oauth/access-token-error.js'
export { withSession } from './app/with-session.js'
export { withPermission } from './app/with-permission.js'
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

// ---------------------------------------------------------------- for plugins
// What a plugin is built from (docs/architecture.md, "Write a plugin"): latchkey's own plugins use
// the same contract, and a plugin in src/plugins/ may import nothing else of latchkey's.
export type { LatchkeyPlugin, SignInMethod, Action, CorsRule, Route } from './kernel/plugin.js'
export type { Context, Body, Reply, ResolvedConfig, ResolvedProvider, DueStep, SessionFieldsInput, SignInAttempt, SignedInNow, StartedSession } from './kernel/types.js'
export { configurationError, type PluginErrorCode } from '../core/errors.js'
export type { RateLimitActionSpec, RateLimitWords, StoreFailurePolicy } from '../core/rate-limit.js'
export { json, redirect, html } from './kernel/respond.js'
export { stringField, askedForJson, readBody } from './kernel/body.js'
export { verifyCsrf, ensureCsrfToken } from './kernel/csrf.js'
export { requireFresh } from './kernel/fresh.js'
export { rewriteSessionClaims, type SessionRead } from './kernel/session.js'
export { pluginEmail, type EmailMessage, type PluginEmailContent } from './kernel/email-message.js'
export { findMailer, type SendMail } from './kernel/mailer.js'
export { readAction, requireOwner, signedIn, type SignedIn } from './kernel/manage.js'
export { cookieKey, type CookieKey } from './kernel/cookies.js'
export { setCookie, clearCookie } from './kernel/context.js'
export { instanceKey, requestKey, type StateKey } from './kernel/state.js'
export { escapeHtml, page } from './kernel/page-html.js'
export { pluginWords, pageWords, type PluginWords } from './kernel/page-language.js'
export { randomToken, sha256Hex, timingSafeEqual, deriveKey, type DerivedKey } from './kernel/plugin-crypto.js'
export type { PluginMessages, PluginSchema, PluginMigration, PluginAdapterTests, SchemaMethods, SchemaQueryable } from './kernel/types.js'
export { useAdapter } from './kernel/adapter-methods.js'
export { afterAnswer } from './kernel/after-answer.js'
export { resolveCallbackUrl } from './kernel/redirect-url.js'
export { issueCode, spendCode, storeOneTimeRecord, checkCodeKind, digits, type CodeKind } from './kernel/one-time-secrets.js'
export { enforceRateLimit, type CountedAttempt } from './kernel/rate-limit/index.js'
export { completeSignIn, answerDue, type SignInInput, type SignInResult } from './sign-in/complete.js'
export { postedCallback } from './sign-in/posted-callback.js'
export { checkBeforeSignIn } from './sign-in/before.js'
