/**
 * Errors as OAuth says them (RFC 6749 §5.2, RFC 8707, RFC 9126): `{ error, error_description }`
 * with `Cache-Control: no-store`, 400, or 401 for a client that failed to authenticate. A
 * malformed body the kernel refused (its `InvalidRequest`, `PayloadTooLarge`) becomes
 * invalid_request; anything else goes on to the kernel, which logs it and answers 500 or 503.
 */
import { AuthError, json, type Context, type Reply } from 'latchkey/server'

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_request_uri'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'invalid_software_statement'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'temporarily_unavailable'

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description)
    this.name = 'OAuthError'
  }
}

/** The error as an OAuth JSON answer; a kernel refusal of the body as invalid_request, a rate limit's as temporarily_unavailable (429, Retry-After); else rethrown. */
export function oauthErrorReply(ctx: Context, error: unknown): Reply {
  if (error instanceof AuthError && error.type === 'RateLimited') {
    ctx.headers['retry-after'] = String(error.retryAfter ?? 60)
    error = new OAuthError('temporarily_unavailable', error.message, 429)
  }
  if (error instanceof AuthError && (error.type === 'InvalidRequest' || error.type === 'PayloadTooLarge')) {
    error = new OAuthError('invalid_request', error.message, error.status === 413 || error.status === 415 ? error.status : 400)
  }
  if (!(error instanceof OAuthError)) throw error
  if (error.status === 401 && ctx.incoming.header('authorization')) ctx.headers['www-authenticate'] ??= 'Basic realm="oauth", charset="UTF-8"'
  ctx.config.logger.warn(`OAuth ${error.error}: ${error.description}`)
  return json(ctx, { error: error.error, error_description: error.description }, error.status)
}

/** Runs an endpoint, its refusals answered as OAuth errors. */
export async function asOAuth(ctx: Context, run: () => Promise<Reply>): Promise<Reply> {
  try {
    return await run()
  } catch (error) {
    return oauthErrorReply(ctx, error)
  }
}
