/**
 * OpenID Connect's two endpoints, on where `scopes` lists `openid`: the discovery document
 * (`/.well-known/openid-configuration`, OIDC Discovery §3: the RFC 8414 document with OIDC's
 * fields, the issuer the configured origin) and userinfo (Core §5.3: the bearer token's user's
 * claims, by its scopes). The ID token itself is id-token.ts.
 */
import { json, type Context, type Reply } from 'latchkey/server'
import { hasScope, userClaims } from './id-token.js'
import { endpoint, serverOptions } from './instance.js'
import type { ResolvedOAuthServer } from './options.js'
import { dpopAlgorithms, presentedToken, proofFailure, storeReplay } from './dpop.js'
import { verifyIssued } from './tokens.js'

/** OIDC is on where the app lists the `openid` scope (with its words for the consent page). */
export const openIdOn = (options: ResolvedOAuthServer) => Object.hasOwn(options.scopes, 'openid')

const claims = ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'amr', 'email', 'email_verified', 'name', 'picture']

/** The discovery document: `metadata` (the RFC 8414 reply, as served) with OIDC's fields added. */
export function openIdConfiguration(ctx: Context, metadata: Reply): Reply {
  const options = serverOptions.get(ctx.config)
  const algs = options.signingKeys ? [...new Set(options.signingKeys.map((k) => k.alg!))] : ['RS256']
  const document = {
    ...(JSON.parse(metadata.body!) as Record<string, unknown>),
    userinfo_endpoint: endpoint(ctx.config, 'userinfo'),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
    claims_supported: claims,
    prompt_values_supported: ['none', 'login', 'consent'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  }
  return { ...metadata, body: JSON.stringify(document) }
}

/** A refusal as RFC 6750 §3 says it: 401 (or 403 for a missing scope) with `WWW-Authenticate: Bearer`. */
function refuse(ctx: Context, error: 'invalid_token' | 'insufficient_scope' | 'invalid_request', description: string): Reply {
  const status = error === 'insufficient_scope' ? 403 : error === 'invalid_request' ? 400 : 401
  ctx.headers['www-authenticate'] = `Bearer error="${error}", error_description="${description}"${error === 'insufficient_scope' ? ', scope="openid"' : ''}`
  ctx.config.logger.warn(`OAuth userinfo ${error}: ${description}`)
  return json(ctx, { error, error_description: description }, status)
}

/** GET or POST /oauth2/userinfo: the access token in the Authorization header only (never a query or body, which logs keep). */
export async function userinfo(ctx: Context): Promise<Reply> {
  if (!openIdOn(serverOptions.get(ctx.config))) return json(ctx, { error: 'invalid_request', error_description: 'OpenID Connect is off: the server lists no openid scope' }, 404)
  const presented = presentedToken(ctx.request)
  if (presented === undefined) {
    ctx.headers['www-authenticate'] = `Bearer, DPoP algs="${dpopAlgorithms.join(' ')}"`
    return json(ctx, { error: 'invalid_token', error_description: 'An access token is required' }, 401)
  }
  if (presented === null) return refuse(ctx, 'invalid_request', 'The Authorization header is not one Bearer or DPoP token')
  // Only a token for userinfo itself: one for an API stays with that API.
  const url = endpoint(ctx.config, 'userinfo')
  const verified = await verifyIssued(ctx.config, presented.token, url)
  if (!verified || !verified.grant_id) return refuse(ctx, 'invalid_token', 'The access token is invalid, expired, revoked or not for userinfo')
  // A DPoP-bound token with a proof by its key for this method and the configured URL (never the request's Host).
  const asked = new Request(url, { method: ctx.request.method, headers: ctx.request.headers })
  const unproven = await proofFailure(asked, presented, verified, ctx.config, storeReplay(ctx.config), ctx.now)
  if (unproven) {
    ctx.headers['www-authenticate'] = `DPoP error="${unproven.error}", error_description="${unproven.description}", algs="${dpopAlgorithms.join(' ')}"`
    ctx.config.logger.warn(`OAuth userinfo ${unproven.error}: ${unproven.description}`)
    return json(ctx, { error: unproven.error, error_description: unproven.description }, 401)
  }
  if (!hasScope(verified.scope, 'openid')) return refuse(ctx, 'insufficient_scope', 'The access token lacks the openid scope')
  return json(ctx, { sub: verified.sub, ...(await userClaims(ctx, verified.sub, verified.scope)) })
}
