/**
 * Turns what oauth4webapi (or the network) throws into an `AuthError` with a client-safe type
 * and a message that says what was expected and what arrived.
 *
 * oauth4webapi's errors carry the whole response body (tokens included) in `cause`, so the
 * original error never travels on: the message is rebuilt from safe parts and the cause is a
 * plain error with the same text. Tokens therefore never reach a logger.
 */
import * as oauth from 'oauth4webapi'
import { AuthError, type ErrorType } from '../../../core/errors.js'

/** Where in the flow the failure happened; it decides the type of the unexpected failures. */
export type Stage = 'signin' | 'callback'

/** `AuthError` for a failure of an OAuth step, from any error thrown while doing it. */
export function oauthError(error: unknown, stage: Stage, step: string, providerId: string): AuthError {
  if (error instanceof AuthError) return error
  const fallback: ErrorType = stage === 'signin' ? 'OAuthSignInError' : 'OAuthCallbackError'
  const prefix = `Provider "${providerId}", ${step}:`

  if (error instanceof oauth.AuthorizationResponseError) {
    const described = error.error_description ? ` (${error.error_description})` : ''
    const type: ErrorType = error.error === 'access_denied' ? 'AccessDenied' : 'OAuthCallbackError'
    return make(type, `${prefix} the provider answered error=${error.error}${described}`)
  }
  if (error instanceof oauth.ResponseBodyError) {
    const described = error.error_description ? ` (${error.error_description})` : ''
    return make(fallback, `${prefix} the provider answered HTTP ${error.status} error=${error.error}${described}`)
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const schemes = error.cause.map((c) => `${c.scheme}${c.parameters.error ? ` error=${c.parameters.error}` : ''}`).join(', ')
    return make(fallback, `${prefix} the provider refused the request with HTTP ${error.status} (WWW-Authenticate: ${schemes})`)
  }
  if (error instanceof oauth.OperationProcessingError) {
    return make(classifyProcessing(error, fallback), `${prefix} ${error.message}${detail(error)}`)
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return make(fallback, `${prefix} unsupported by the client: ${error.message}${detail(error)}`)
  }
  if (error instanceof TypeError && /fetch failed|network|ECONNREFUSED/i.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return make(fallback, `${prefix} the provider could not be reached (${cause?.code ?? cause?.message ?? error.message})`)
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return make(fallback, `${prefix} ${message}`)
}

function make(type: ErrorType, message: string, status = type === 'AccessDenied' ? 403 : 400): AuthError {
  return new AuthError(type, message, { cause: new Error(message), status })
}

/** State and nonce failures are check failures; the rest is the provider's (or an attacker's) doing. */
function classifyProcessing(error: oauth.OperationProcessingError, fallback: ErrorType): ErrorType {
  const cause = error.cause as { claim?: string } | undefined
  if (error.code === oauth.JWT_CLAIM_COMPARISON && cause?.claim === 'nonce') return 'InvalidCheck'
  if (/"state"/.test(error.message)) return 'InvalidCheck'
  return fallback
}

/** "expected X, got Y" from the safe parts of an oauth4webapi error: claim names, issuers, states. */
function detail(error: Error): string {
  const cause = (error as { cause?: unknown }).cause as
    | { expected?: unknown; claim?: string; claims?: Record<string, unknown>; attribute?: string; body?: Record<string, unknown>; parameters?: URLSearchParams; now?: number }
    | undefined
  if (!cause || typeof cause !== 'object') return ''
  const parts: string[] = []
  if (cause.claim && cause.claims) {
    const got = cause.claims[cause.claim]
    if (cause.claim === 'exp' || cause.claim === 'iat' || cause.claim === 'nbf' || cause.claim === 'auth_time') {
      parts.push(`${cause.claim} ${String(got)} against the clock ${String(cause.now)}`)
    } else if (cause.claim === 'nonce') {
      parts.push(got === undefined ? 'the ID token carries no nonce' : 'the ID token nonce differs from the one sent')
    } else {
      parts.push(`expected ${cause.claim} ${JSON.stringify(cause.expected)}, got ${JSON.stringify(got)}`)
    }
  } else if (cause.attribute && cause.body) {
    parts.push(`expected ${cause.attribute} ${JSON.stringify(cause.expected)}, got ${JSON.stringify(cause.body[cause.attribute])}`)
  } else if (cause.parameters instanceof URLSearchParams && /"iss"/.test(error.message)) {
    parts.push(`expected ${JSON.stringify(cause.expected)}, got ${JSON.stringify(cause.parameters.get('iss'))}`)
  } else if (cause.parameters instanceof URLSearchParams && /"state"/.test(error.message)) {
    parts.push(cause.parameters.get('state') === null ? 'no state came back' : 'the state that came back is not the one sent')
  }
  return parts.length ? ` (${parts.join('; ')})` : ''
}
