/**
 * The code exchange and the ID token's validation, both by oauth4webapi.
 *
 * oauth4webapi checks the ID token's claims (issuer, audience, expiry against the request's
 * clock, nonce, azp, auth_time); latchkey then verifies its signature against the provider's
 * keys (`jwks_endpoint`, or the discovered `jwks_uri`) with `validateApplicationLevelSignature`.
 * ID tokens signed with a shared secret (HS*) are taken on the strength of the TLS connection
 * to the token endpoint, as OpenID Connect Core 3.1.3.7 allows.
 */
import { decodeProtectedHeader } from 'jose'
import * as oauth from 'oauth4webapi'
import type { OAuthConfig, TokenSet } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { OAuthClient, RequestOptions } from './client.js'
import { oauthError } from './errors.js'

export interface ExchangeInput {
  as: oauth.AuthorizationServer
  client: OAuthClient
  options: RequestOptions
  /** The authorization response, as `validateAuthResponse` returned it. */
  callback: URLSearchParams
  redirectUri: string
  codeVerifier?: string
  nonce?: string
  state?: string
}

export interface Exchanged {
  tokens: TokenSet
  /** The validated ID token claims, when an ID token came back. */
  claims?: oauth.IDToken
}

export async function exchangeCode(provider: OAuthConfig<any>, input: ExchangeInput): Promise<Exchanged> {
  const { as, client, options } = input
  const tokenOption = typeof provider.token === 'object' ? provider.token : undefined
  let response: Response
  try {
    if (tokenOption?.request) {
      // A provider module's own request. What it returns is still validated like a token response.
      const params = Object.fromEntries(input.callback) as Record<string, string>
      const checks = { code_verifier: input.codeVerifier, nonce: input.nonce, state: input.state }
      const { tokens } = await tokenOption.request({ checks, params, provider, redirectUri: input.redirectUri })
      response = Response.json({ token_type: 'bearer', ...tokens })
    } else {
      const additionalParameters = Object.fromEntries(
        Object.entries(tokenOption?.params ?? {}).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, String(v)]),
      )
      response = await oauth.authorizationCodeGrantRequest(as, client.client, client.auth, input.callback, input.redirectUri, input.codeVerifier ?? oauth.nopkce, {
        ...options,
        additionalParameters,
      })
    }
  } catch (error) {
    throw oauthError(error, 'callback', 'token request', provider.id)
  }

  let result: oauth.TokenEndpointResponse
  try {
    result = await oauth.processAuthorizationCodeResponse(as, client.client, response, {
      expectedNonce: input.nonce ?? oauth.expectNoNonce,
      requireIdToken: provider.type === 'oidc',
      maxAge: maxAgeOf(provider),
    })
  } catch (error) {
    throw oauthError(error, 'callback', 'token response', provider.id)
  }

  const claims = oauth.getValidatedIdTokenClaims(result)
  if (result.id_token) await verifySignature(provider, as, response, result.id_token, options)
  return { tokens: { ...result } as TokenSet, claims }
}

async function verifySignature(provider: OAuthConfig<any>, as: oauth.AuthorizationServer, response: Response, idToken: string, options: RequestOptions): Promise<void> {
  const alg = algOf(idToken)
  if (alg?.startsWith('HS')) return
  if (!as.jwks_uri) {
    if (provider.type === 'oauth') return
    throw new AuthError('Configuration', `Provider "${provider.id}": expected jwks_endpoint or a discovered jwks_uri to verify the ID token signature, got none`, { status: 500 })
  }
  try {
    await oauth.validateApplicationLevelSignature(as, response, options)
  } catch (error) {
    throw oauthError(error, 'callback', `ID token signature (${alg ?? 'no alg'}, keys at ${as.jwks_uri})`, provider.id)
  }
}

function algOf(jwt: string): string | undefined {
  try {
    return decodeProtectedHeader(jwt).alg
  } catch {
    return undefined
  }
}

/** `max_age` from `authorization.params`; the ID token's `auth_time` must then honour it. */
function maxAgeOf(provider: OAuthConfig<any>): number | undefined {
  const value = typeof provider.authorization === 'object' ? provider.authorization.params?.max_age : undefined
  if (value === undefined) return undefined
  const n = Number(value)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}
