/**
 * For the app's resource servers (an MCP server, an API): the bearer token of a request checked
 * (RFC 6750, RFC 9068: signature, typ, issuer, audience, expiry, scopes), and the protected
 * resource metadata (RFC 9728) that a 401's `WWW-Authenticate` names, so a client finds the
 * authorization server from the refusal alone.
 */
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { ResolvedConfig } from 'latchkey/server'
import { dpopRefusal, presentedToken, processReplay, proofFailure, storeReplay } from './dpop.js'
import { algorithms, verifyIssued, type AccessTokenClaims } from './tokens.js'

export interface VerifyAccessTokenOptions {
  /** The resource the token must be for: exactly its `aud`. */
  resource: string
  /** Scopes the token must carry, each. */
  scopes?: string[]
}

export interface RemoteVerifyOptions extends VerifyAccessTokenOptions {
  /** The authorization server's issuer (latchkey's configured origin). */
  issuer: string
  /** Where its keys are; default: `jwks_uri` of `<issuer>/.well-known/oauth-authorization-server`. */
  jwksUri?: string
}

/** A checked access token: who (`sub`), which client, what it may do. */
export interface VerifiedAccessToken {
  sub: string
  clientId: string
  scopes: string[]
  /** Seconds since the epoch. */
  expiresAt: number
  claims: AccessTokenClaims
}

/** RFC 9728 §3.1: the well-known suffix goes between the resource's host and its path. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource)
  const path = url.pathname === '/' ? '' : url.pathname
  return `${url.origin}/.well-known/oauth-protected-resource${path}`
}

/** The protected resource metadata document (RFC 9728 §2). */
export function resourceMetadata(resource: string, issuer: string, scopes: string[]): Record<string, unknown> {
  return { resource, authorization_servers: [issuer], scopes_supported: scopes, bearer_methods_supported: ['header'] }
}

/** The refusal: 401 (no token, or a bad one) or 403 (too few scopes), with `WWW-Authenticate` as RFC 6750 §3 and RFC 9728 §5.1 say. */
function refusal(resource: string, failure?: { error: 'invalid_token' | 'insufficient_scope' | 'invalid_request'; description: string; scope?: string }): Response {
  const parts = [`resource_metadata="${resourceMetadataUrl(resource)}"`]
  if (failure) {
    parts.push(`error="${failure.error}"`, `error_description="${failure.description}"`)
    if (failure.scope) parts.push(`scope="${failure.scope}"`)
  }
  const status = failure?.error === 'insufficient_scope' ? 403 : failure?.error === 'invalid_request' ? 400 : 401
  const body = failure ? { error: failure.error, error_description: failure.description } : { error: 'invalid_token', error_description: 'An access token is required' }
  return Response.json(body, { status, headers: { 'www-authenticate': `Bearer ${parts.join(', ')}`, 'cache-control': 'no-store' } })
}

/** The shared checks once the token is verified: scopes. */
function withScopes(claims: AccessTokenClaims, options: VerifyAccessTokenOptions): VerifiedAccessToken | Response {
  const scopes = claims.scope.split(' ').filter(Boolean)
  const missing = (options.scopes ?? []).filter((s) => !scopes.includes(s))
  if (missing.length) return refusal(options.resource, { error: 'insufficient_scope', description: 'The token lacks a scope this needs', scope: (options.scopes ?? []).join(' ') })
  return { sub: claims.sub, clientId: claims.client_id, scopes, expiresAt: claims.exp, claims }
}

/** On this instance: its own keys, and a revoked grant's tokens refused at once. */
export async function verifyLocal(config: ResolvedConfig, request: Request, options: VerifyAccessTokenOptions): Promise<VerifiedAccessToken | Response> {
  const presented = presentedToken(request)
  if (presented === undefined) return refusal(options.resource)
  if (presented === null) return refusal(options.resource, { error: 'invalid_request', description: 'The Authorization header is not one Bearer token' })
  const claims = await verifyIssued(config, presented.token, options.resource)
  if (!claims) return refusal(options.resource, { error: 'invalid_token', description: 'The access token is invalid, expired, revoked or for another resource' })
  const unproven = await proofFailure(request, presented, claims, config, storeReplay(config), config.now())
  if (unproven) return dpopRefusal(resourceMetadataUrl(options.resource), unproven)
  return withScopes(claims, options)
}

const remoteKeys = new Map<string, Promise<JWTVerifyGetKey>>()

async function keysOf(options: RemoteVerifyOptions): Promise<JWTVerifyGetKey> {
  const id = `${options.issuer}\n${options.jwksUri ?? ''}`
  let found = remoteKeys.get(id)
  if (!found) {
    found = (async () => {
      let uri = options.jwksUri
      if (!uri) {
        const response = await fetch(`${options.issuer.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`, { headers: { accept: 'application/json' } })
        const metadata = (await response.json()) as { issuer?: string; jwks_uri?: string }
        // RFC 8414 §3.3: the document must name the issuer it was fetched for.
        if (!response.ok || metadata.issuer !== options.issuer || typeof metadata.jwks_uri !== 'string') throw new Error(`latchkey: ${options.issuer} serves no authorization server metadata for itself`)
        uri = metadata.jwks_uri
      }
      return createRemoteJWKSet(new URL(uri))
    })()
    remoteKeys.set(id, found)
    found.catch(() => remoteKeys.get(id) === found && remoteKeys.delete(id))
  }
  return found
}

/**
 * Checks the request's bearer token against a latchkey authorization server elsewhere (its JWKS,
 * fetched and cached). Answers the token, or the Response to send: 401 or 403 with
 * `WWW-Authenticate`. A revoked grant's tokens work here until they expire (minutes): ask the
 * server's introspection endpoint where that must be at once.
 */
export async function verifyAccessToken(request: Request, options: RemoteVerifyOptions): Promise<VerifiedAccessToken | Response> {
  const presented = presentedToken(request)
  if (presented === undefined) return refusal(options.resource)
  if (presented === null) return refusal(options.resource, { error: 'invalid_request', description: 'The Authorization header is not one Bearer token' })
  let claims: AccessTokenClaims
  try {
    const { payload } = await jwtVerify<AccessTokenClaims>(presented.token, await keysOf(options), {
      issuer: options.issuer,
      audience: options.resource,
      typ: 'at+jwt',
      algorithms,
      requiredClaims: ['sub', 'aud', 'client_id', 'exp', 'iat', 'jti'],
    })
    if (typeof payload.scope !== 'string' || typeof payload.client_id !== 'string') throw new Error('malformed claims')
    claims = payload
  } catch {
    return refusal(options.resource, { error: 'invalid_token', description: 'The access token is invalid, expired or for another resource' })
  }
  // Replays are caught in this process only: the authorization server's store is not this one's.
  const unproven = await proofFailure(request, presented, claims, undefined, processReplay, Date.now())
  if (unproven) return dpopRefusal(resourceMetadataUrl(options.resource), unproven)
  return withScopes(claims, options)
}

/**
 * GET /.well-known/oauth-protected-resource<path> for a resource served elsewhere than latchkey's
 * handler: `(request) => Response`. latchkey's handler answers it itself for a configured resource
 * on its own origin.
 */
export function protectedResourceHandler(options: { resource: string; issuer: string; scopes?: string[] }): (request: Request) => Response {
  const body = resourceMetadata(options.resource, options.issuer, options.scopes ?? [])
  return () => Response.json(body, { headers: { 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' } })
}
