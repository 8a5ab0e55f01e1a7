/**
 * The token endpoint (POST /oauth2/token: authorization_code, refresh_token, client_credentials),
 * revocation (RFC 7009) and introspection (RFC 7662). Access tokens are JWTs as RFC 9068 says
 * (`typ: at+jwt`; iss, sub, aud, client_id, scope, exp, iat, jti), signed by the newest key;
 * refresh tokens are random, stored as SHA-256, rotated at each use, and a second use of one
 * revokes its grant: every token that authorization issued.
 */
import { base64url, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { enforceRateLimit, json, randomToken, readBody, sha256Hex, timingSafeEqual, type Body, type Context, type ResolvedConfig, type Reply } from 'latchkey/server'
import { codeIdentifier } from './authorize.js'
import { authenticateClient, param, requestedScopes } from './clients.js'
import { asOAuth, OAuthError } from './errors.js'
import { issuerOf, oauthStore, serverOptions } from './instance.js'
import { idTokenAnswer } from './id-token.js'
import { keys, verificationKey } from './keys.js'
import { deviceGrant } from './device.js'
import { bindIssued, checkCodeBinding, checkRefreshBinding, checkTokenRequestProof } from './dpop.js'
import { deviceCodeGrant, type ResolvedClient } from './options.js'
import { purgeExpired } from './purge.js'
import type { Grant } from './store.js'

/** The claims of an access token issued here. */
export interface AccessTokenClaims extends JWTPayload {
  iss: string
  sub: string
  aud: string
  client_id: string
  scope: string
  exp: number
  iat: number
  jti: string
  /** The grant it came from (absent for client_credentials): revoking the grant stops it where the server is asked. */
  grant_id?: string
  auth_time?: number
  /** The DPoP key it is bound to (RFC 9449 §6): sent only with a proof by that key. */
  cnf?: { jkt: string }
}

export const algorithms = ['RS256', 'ES256', 'EdDSA']
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/
/** The rate-limit actions of the token and introspection endpoints (plugin.ts declares their rules). */
export const tokenAction = 'oauthToken'
export const introspectionAction = 'oauthIntrospection'

async function accessToken(ctx: Context, claims: { sub: string; aud: string; client_id: string; scope: string; grant_id?: string; auth_time?: number; cnf?: { jkt: string } }): Promise<string> {
  const { accessTokenTtl } = serverOptions.get(ctx.config)
  const { signing } = await keys(ctx.config)
  const now = Math.floor(ctx.now / 1000)
  const { sub, aud, ...rest } = claims
  return new SignJWT(rest)
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'at+jwt' })
    .setIssuer(issuerOf(ctx.config))
    .setSubject(sub)
    .setAudience(aud)
    .setIssuedAt(now)
    .setExpirationTime(now + accessTokenTtl)
    .setJti(randomToken(16))
    .sign(signing.key)
}

/** The token answer for a grant: a new access token, and a new refresh token where the client uses them. */
async function tokensFor(ctx: Context, client: ResolvedClient, grant: Grant, scope: string, more?: (accessToken: string) => Promise<Record<string, unknown>>): Promise<Reply> {
  const options = serverOptions.get(ctx.config)
  const bound = await bindIssued(ctx, grant.id, client.secretHash === undefined)
  const access = await accessToken(ctx, {
    ...(bound ? { cnf: bound } : {}),
    sub: grant.userId ?? client.clientId,
    aud: grant.resource,
    client_id: client.clientId,
    scope,
    grant_id: grant.id,
    ...(grant.authTime ? { auth_time: Math.floor(grant.authTime.getTime() / 1000) } : {}),
  })
  const answer: Record<string, unknown> = { access_token: access, token_type: bound ? 'DPoP' : 'Bearer', expires_in: options.accessTokenTtl, scope, ...(await more?.(access)) }
  if (client.grantTypes.includes('refresh_token')) {
    const refresh = randomToken(32)
    const store = oauthStore(ctx.config)
    await store.createOAuthRefreshToken({ tokenHash: await sha256Hex(refresh), grantId: grant.id, expires: new Date(ctx.now + options.refreshTokenTtl * 1000) })
    answer.refresh_token = refresh
  }
  await purgeExpired(ctx)
  return json(ctx, answer)
}

const grantIdOf = (code: string) => (/^([A-Za-z0-9_-]{16,64})\.[A-Za-z0-9_-]{16,128}$/.exec(code) ?? [])[1]

async function codeGrant(ctx: Context, client: ResolvedClient, body: Body): Promise<Reply> {
  if (!client.grantTypes.includes('authorization_code')) throw new OAuthError('unauthorized_client', 'This client may not use authorization_code')
  const code = param(body, 'code')
  if (code === undefined) throw new OAuthError('invalid_request', 'code is missing')
  const redirectUri = param(body, 'redirect_uri')
  if (redirectUri === undefined) throw new OAuthError('invalid_request', 'redirect_uri is missing: send the one of the authorization request')
  const verifier = param(body, 'code_verifier')
  if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is missing: PKCE is required')
  const grantId = grantIdOf(code)
  if (!grantId) throw new OAuthError('invalid_grant', 'The code is not one this server issued')
  const store = oauthStore(ctx.config)
  const codeHash = await sha256Hex(code)
  const spent = await store.useVerificationToken({ identifier: codeIdentifier(grantId), token: codeHash })
  const grant = await store.getOAuthGrant(grantId)
  if (!spent) {
    // Spent before: a replay. What the first use issued is revoked (RFC 6749 §4.1.2). A guess that names a grant changes nothing.
    if (grant?.codeHash && timingSafeEqual(grant.codeHash, codeHash)) {
      await store.revokeOAuthGrant(grant.id, new Date(ctx.now))
      throw new OAuthError('invalid_grant', 'The code was used already; the tokens issued with it are revoked')
    }
    throw new OAuthError('invalid_grant', 'The code is not one this server issued')
  }
  if (!grant) throw new OAuthError('invalid_grant', 'The code is not one this server issued')
  if (spent.expires.getTime() <= ctx.now) throw new OAuthError('invalid_grant', 'The code has expired; codes last 60 seconds')
  if (grant.clientId !== client.clientId) {
    await store.revokeOAuthGrant(grant.id, new Date(ctx.now))
    throw new OAuthError('invalid_grant', 'The code was issued to another client')
  }
  if (grant.revokedAt) throw new OAuthError('invalid_grant', 'The grant was revoked')
  if (grant.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri is not the one of the authorization request')
  await checkCodeBinding(ctx, grant.id)
  if (!verifierPattern.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~')
  const challenge = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
  if (!grant.codeChallenge || !timingSafeEqual(challenge, grant.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge')
  const resource = param(body, 'resource')
  if (resource !== undefined && resource !== grant.resource) throw new OAuthError('invalid_target', 'resource is not the one the user authorized')
  return tokensFor(ctx, client, grant, grant.scope, (access) => idTokenAnswer(ctx, client, grant, access))
}

async function refreshGrant(ctx: Context, client: ResolvedClient, body: Body): Promise<Reply> {
  if (!client.grantTypes.includes('refresh_token')) throw new OAuthError('unauthorized_client', 'This client may not use refresh_token')
  const token = param(body, 'refresh_token')
  if (token === undefined) throw new OAuthError('invalid_request', 'refresh_token is missing')
  const store = oauthStore(ctx.config)
  const tokenHash = await sha256Hex(token)
  await checkRefreshBinding(ctx, tokenHash)
  const used = await store.useOAuthRefreshToken(tokenHash, new Date(ctx.now))
  if (used.result === 'unknown') throw new OAuthError('invalid_grant', 'The refresh token is not one this server issued')
  const grant = await store.getOAuthGrant(used.grantId)
  // Revoked already (by the user, or a reuse before): say so, not that the token was reused.
  if (grant?.revokedAt && grant.clientId === client.clientId) throw new OAuthError('invalid_grant', 'The grant was revoked')
  // A token used again, or presented by another client, was stolen or leaked: its whole family goes.
  if (used.result === 'reused' || !grant || grant.clientId !== client.clientId) {
    await store.revokeOAuthGrant(used.grantId, new Date(ctx.now))
    throw new OAuthError('invalid_grant', used.result === 'reused' ? 'The refresh token was used already; every token of its grant is revoked' : 'The refresh token was issued to another client')
  }
  if (used.expires.getTime() <= ctx.now) throw new OAuthError('invalid_grant', 'The refresh token has expired')
  const resource = param(body, 'resource')
  if (resource !== undefined && resource !== grant.resource) throw new OAuthError('invalid_target', 'resource is not the one the user authorized')
  const asked = param(body, 'scope')
  const granted = grant.scope.split(' ').filter(Boolean)
  const scope = asked === undefined ? grant.scope : [...new Set(asked.split(' ').filter(Boolean))].sort().join(' ')
  if (!scope.split(' ').every((s) => granted.includes(s))) throw new OAuthError('invalid_scope', 'scope asks for more than the user authorized')
  return tokensFor(ctx, client, grant, scope)
}

async function clientCredentialsGrant(ctx: Context, client: ResolvedClient, body: Body): Promise<Reply> {
  if (!client.grantTypes.includes('client_credentials') || client.secretHash === undefined) throw new OAuthError('unauthorized_client', 'This client may not use client_credentials')
  const options = serverOptions.get(ctx.config)
  const scope = requestedScopes(client, param(body, 'scope')).join(' ')
  const resource = param(body, 'resource')
  if (resource === undefined) throw new OAuthError('invalid_target', `resource is missing: name the API the token is for, one of ${options.resources.join(', ')}`)
  if (!options.resources.includes(resource)) throw new OAuthError('invalid_target', 'resource is not one this server issues tokens for')
  // No grant is kept: the token lives minutes, and the client can ask again.
  const bound = await bindIssued(ctx, undefined, false)
  const access = await accessToken(ctx, { sub: client.clientId, aud: resource, client_id: client.clientId, scope, ...(bound ? { cnf: bound } : {}) })
  return json(ctx, { access_token: access, token_type: bound ? 'DPoP' : 'Bearer', expires_in: options.accessTokenTtl, scope })
}

/** POST /oauth2/token */
export function token(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    const client = await authenticateClient(ctx, body, serverOptions.get(ctx.config))
    // Counted once the client is known: an unknown client_id adds no row.
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, tokenAction, client.clientId, ctx.now)
    await checkTokenRequestProof(ctx)
    const type = param(body, 'grant_type')
    if (type === 'authorization_code') return codeGrant(ctx, client, body)
    if (type === 'refresh_token') return refreshGrant(ctx, client, body)
    if (type === 'client_credentials') return clientCredentialsGrant(ctx, client, body)
    if (type === deviceCodeGrant) {
      const { grant, scope } = await deviceGrant(ctx, client, body)
      return tokensFor(ctx, client, grant, scope)
    }
    if (type === undefined) throw new OAuthError('invalid_request', 'grant_type is missing')
    throw new OAuthError('unsupported_grant_type', `grant_type must be authorization_code, refresh_token, client_credentials or ${deviceCodeGrant}`)
  })
}

/**
 * An access token issued here, checked: signature by a published key, `typ`, issuer, expiry, and
 * `resource` as its audience where given; a token of a revoked grant is refused. Null when any fails.
 */
export async function verifyIssued(config: ResolvedConfig, token: string, resource?: string): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify<AccessTokenClaims>(token, verificationKey(config), {
      issuer: issuerOf(config),
      typ: 'at+jwt',
      algorithms,
      currentDate: new Date(config.now()),
      ...(resource !== undefined ? { audience: resource } : {}),
      requiredClaims: ['sub', 'aud', 'client_id', 'exp', 'iat', 'jti'],
    })
    if (typeof payload.aud !== 'string' || typeof payload.client_id !== 'string' || typeof payload.scope !== 'string') return null
    if (payload.grant_id !== undefined) {
      const grant = await oauthStore(config).getOAuthGrant(String(payload.grant_id))
      if (!grant || grant.revokedAt) return null
    }
    return payload
  } catch {
    return null
  }
}

const looksLikeJwt = (token: string) => token.split('.').length === 3

/** POST /oauth2/revoke (RFC 7009): 200 whatever the token; one of the client's own revokes its grant. */
export function revoke(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    const client = await authenticateClient(ctx, body, serverOptions.get(ctx.config))
    const token = param(body, 'token')
    if (token === undefined) throw new OAuthError('invalid_request', 'token is missing')
    const store = oauthStore(ctx.config)
    let grantId: string | undefined
    if (looksLikeJwt(token)) {
      const claims = await verifyIssued(ctx.config, token)
      if (claims?.client_id === client.clientId) grantId = claims.grant_id
    } else {
      const found = await store.getOAuthRefreshToken(await sha256Hex(token))
      const grant = found ? await store.getOAuthGrant(found.grantId) : null
      if (grant?.clientId === client.clientId) grantId = grant.id
    }
    if (grantId) await store.revokeOAuthGrant(grantId, new Date(ctx.now))
    return json(ctx, {})
  })
}

/** POST /oauth2/introspect (RFC 7662): for confidential clients, about their own tokens (any client's with `introspectAny`). */
export function introspect(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    const client = await authenticateClient(ctx, body, serverOptions.get(ctx.config))
    if (client.secretHash === undefined) throw new OAuthError('invalid_client', 'Client authentication failed: introspection needs a confidential client', 401)
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, introspectionAction, client.clientId, ctx.now)
    const token = param(body, 'token')
    if (token === undefined) throw new OAuthError('invalid_request', 'token is missing')
    const may = (clientId: string) => client.introspectAny || clientId === client.clientId
    const inactive = () => json(ctx, { active: false })
    if (looksLikeJwt(token)) {
      const claims = await verifyIssued(ctx.config, token)
      if (!claims || !may(claims.client_id)) return inactive()
      const { iss, sub, aud, client_id, scope, exp, iat, jti, cnf } = claims
      return json(ctx, { active: true, token_type: cnf ? 'DPoP' : 'Bearer', iss, sub, aud, client_id, scope, exp, iat, jti, ...(cnf ? { cnf } : {}) })
    }
    const store = oauthStore(ctx.config)
    const found = await store.getOAuthRefreshToken(await sha256Hex(token))
    const grant = found ? await store.getOAuthGrant(found.grantId) : null
    if (!found || !grant || found.usedAt || grant.revokedAt || found.expires.getTime() <= ctx.now || !may(grant.clientId)) return inactive()
    return json(ctx, {
      active: true,
      token_type: 'refresh_token',
      iss: issuerOf(ctx.config),
      sub: grant.userId ?? grant.clientId,
      aud: grant.resource,
      client_id: grant.clientId,
      scope: grant.scope,
      exp: Math.floor(found.expires.getTime() / 1000),
    })
  })
}
