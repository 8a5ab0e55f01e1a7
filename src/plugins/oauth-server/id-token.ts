/**
 * OpenID Connect's ID token (Core §2, §3.1.3.6), for a code grant whose scope holds `openid`: who
 * signed in (`sub`), for which client (`aud`), when and how (`auth_time`, `amr` as the session
 * recorded them: `pwd`, `hwk`, `otp`...), the request's `nonce` echoed, `at_hash` binding the access
 * token, and the email and profile claims their scopes allow. Signed by the plugin's newest key
 * (`typ: JWT`, never `at+jwt`, so neither token passes for the other). What the sign-in knew is kept
 * beside the code, as a pending record spent with it.
 */
import { base64url, SignJWT } from 'jose'
import { useAdapter, type Context } from 'latchkey/server'
import { OAuthError } from './errors.js'
import { issuerOf, oauthStore, serverOptions } from './instance.js'
import { keys } from './keys.js'
import type { AuthorizationRequest, ResolvedClient } from './options.js'
import type { Grant } from './store.js'

/** The scopes OpenID Connect defines here; `openid` in `scopes` turns OIDC on. */
export const openIdScopes = ['openid', 'profile', 'email'] as const

export const hasScope = (scope: string, name: string) => scope.split(' ').includes(name)

/** The pending record that carries the sign-in's facts from the consent to the token endpoint. */
const factsId = (grantId: string) => `oidc:${grantId}`

/** At the code's issue: the request's nonce and how the user signed in, kept as long as the code (and a little more). */
export async function keepSignInFacts(ctx: Context, grantId: string, request: AuthorizationRequest, facts: { amr?: string[]; expires: Date }): Promise<void> {
  if (!hasScope(request.scope, 'openid')) return
  const params: Record<string, string> = {}
  if (request.nonce !== undefined) params.nonce = request.nonce
  if (facts.amr?.length) params.amr = facts.amr.join(' ')
  await oauthStore(ctx.config).createOAuthRequest({ id: factsId(grantId), clientId: request.client_id, params, expires: new Date(facts.expires.getTime() + 60_000) })
}

/** The left half of the access token's hash (Core §3.1.3.6), by the signing algorithm's hash: SHA-512 for EdDSA (Ed25519), else SHA-256. */
async function atHash(accessToken: string, alg: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest(alg === 'EdDSA' ? 'SHA-512' : 'SHA-256', new TextEncoder().encode(accessToken)))
  return base64url.encode(digest.slice(0, digest.length / 2))
}

/** The user's claims that `scope` allows: email (and whether it is proven), name and picture. */
export async function userClaims(ctx: Context, userId: string, scope: string): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {}
  if (!hasScope(scope, 'email') && !hasScope(scope, 'profile')) return claims
  const user = await useAdapter(ctx.config, ['getUser'], 'OpenID Connect’s claims').getUser(userId)
  if (!user) return claims
  if (hasScope(scope, 'email') && user.email) Object.assign(claims, { email: user.email, email_verified: !!user.emailVerified })
  if (hasScope(scope, 'profile')) {
    if (user.name) claims.name = user.name
    if (user.image) claims.picture = user.image
  }
  return claims
}

/** `{ id_token }` for a code grant with `openid`, the sign-in's facts spent; `{}` otherwise. */
export async function idTokenAnswer(ctx: Context, client: ResolvedClient, grant: Grant, accessToken: string): Promise<Record<string, unknown>> {
  if (!hasScope(grant.scope, 'openid') || !grant.userId) return {}
  const facts = await oauthStore(ctx.config).useOAuthRequest(factsId(grant.id))
  if (!facts || facts.expires.getTime() <= ctx.now) throw new OAuthError('invalid_grant', 'The sign-in behind this code is no longer known; start again')
  const { signing } = await keys(ctx.config)
  const now = Math.floor(ctx.now / 1000)
  const claims: Record<string, unknown> = {
    ...(await userClaims(ctx, grant.userId, grant.scope)),
    at_hash: await atHash(accessToken, signing.alg),
    ...(grant.authTime ? { auth_time: Math.floor(grant.authTime.getTime() / 1000) } : {}),
    ...(facts.params.nonce !== undefined ? { nonce: facts.params.nonce } : {}),
    ...(facts.params.amr ? { amr: facts.params.amr.split(' ') } : {}),
  }
  const idToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'JWT' })
    .setIssuer(issuerOf(ctx.config))
    .setSubject(grant.userId)
    .setAudience(client.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + serverOptions.get(ctx.config).accessTokenTtl)
    .sign(signing.key)
  return { id_token: idToken }
}
