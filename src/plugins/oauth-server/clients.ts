/**
 * Who the client is: its authentication at the token, PAR, revocation and introspection endpoints
 * (client_secret_basic, client_secret_post, or none for a public client), and the one redirect
 * URI rule (exact match; a loopback IP's port free, RFC 8252 §7.3).
 */
import { timingSafeEqual, type Body, type Context } from 'latchkey/server'
import { findClient } from './client-lookup.js'
import { OAuthError } from './errors.js'
import { secretHash, type ResolvedClient, type ResolvedOAuthServer } from './options.js'

/** One string parameter, or undefined; a list, object or number is invalid_request. */
export function param(body: Body, name: string): string | undefined {
  const value = body[name]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `Expected "${name}" to be one string`)
  if (value.length > 4096) throw new OAuthError('invalid_request', `"${name}" is longer than 4096 characters`)
  return value
}

const invalidClient = (why: string) => new OAuthError('invalid_client', `Client authentication failed: ${why}`, 401)

function basicCredentials(header: string): { id: string; secret: string } {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim())
  let decoded: string | undefined
  try {
    decoded = match ? atob(match[1]!) : undefined
  } catch {
    decoded = undefined
  }
  const colon = decoded?.indexOf(':') ?? -1
  if (decoded === undefined || colon < 0) throw invalidClient('the Authorization header is not Basic base64(client_id:client_secret)')
  // RFC 6749 §2.3.1: each part is form-encoded before base64.
  const part = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '))
    } catch {
      throw invalidClient('the Authorization header is not Basic base64(client_id:client_secret)')
    }
  }
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) }
}

/**
 * The client making the request. A confidential client must prove its secret (Basic, or
 * `client_secret` in the body, not both); a public one names itself with `client_id` and has no
 * secret to send. Any failure is 401 invalid_client, which says nothing of which client exists.
 */
export async function authenticateClient(ctx: Context, body: Body, options: ResolvedOAuthServer): Promise<ResolvedClient> {
  const header = ctx.incoming.header('authorization')
  const bodyId = param(body, 'client_id')
  const bodySecret = param(body, 'client_secret')
  let id: string | undefined
  let secret: string | undefined
  if (header) {
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'Send the client secret one way: the Authorization header or client_secret, not both')
    ;({ id, secret } = basicCredentials(header))
    if (bodyId !== undefined && bodyId !== id) throw new OAuthError('invalid_request', 'client_id in the body is not the client of the Authorization header')
  } else {
    id = bodyId
    secret = bodySecret
  }
  if (id === undefined) throw invalidClient('no client_id, and no Authorization header')
  const client = await findClient(ctx, options, id).catch((error: unknown) => {
    if (error instanceof OAuthError) throw invalidClient(error.description)
    throw error
  })
  if (!client) throw invalidClient('unknown client or wrong secret')
  if (client.secretHash === undefined) {
    if (secret !== undefined) throw invalidClient('this client is public and has no secret')
    return client
  }
  // Hashes of equal length compared in constant time: the time tells nothing of the secret.
  if (secret === undefined || !timingSafeEqual(secretHash(secret), client.secretHash)) throw invalidClient('unknown client or wrong secret')
  return client
}

const loopbackUri = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?][^#]*)?$/

/** The registered URI that `uri` is, whole; for a loopback IP (http, 127.0.0.1 or [::1]) any port. */
export function matchRedirectUri(client: ResolvedClient, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true
  const given = loopbackUri.exec(uri)
  if (!given || (given[2] !== undefined && Number(given[2]) > 65535)) return false
  return client.redirectUris.some((registered) => {
    const r = loopbackUri.exec(registered)
    return r !== null && r[1] === given[1] && (r[3] ?? '') === (given[3] ?? '')
  })
}

/** The request's scopes, each allowed to the client; none asked: all the client may have. */
export function requestedScopes(client: ResolvedClient, scope: string | undefined): string[] {
  if (scope === undefined) return [...client.scopes]
  const asked = [...new Set(scope.split(' ').filter(Boolean))]
  if (!asked.length) throw new OAuthError('invalid_scope', 'scope is empty')
  const refused = asked.filter((s) => !client.scopes.includes(s))
  if (refused.length) throw new OAuthError('invalid_scope', `The client may not ask for ${refused.map((s) => JSON.stringify(s.slice(0, 64))).join(', ')}`)
  return asked.sort()
}
