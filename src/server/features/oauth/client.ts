/**
 * The provider as oauth4webapi's `Client`, its client authentication, and the options every
 * outgoing request carries.
 */
import { importJWK } from 'jose'
import * as oauth from 'oauth4webapi'
import type { OAuthConfig, PrivateJWK, WebCryptoKey } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'

export interface OAuthClient {
  client: oauth.Client
  auth: oauth.ClientAuth
}

/**
 * `client` overrides win over `clientId`/`clientSecret`. The authentication method is
 * `client.token_endpoint_auth_method`, else `client_secret_basic` with a secret and `none`
 * (a public client, which then relies on PKCE) without one.
 *
 * The request's clock (`ctx.now`, which tests and `AuthConfig.now` move) becomes oauth4webapi's
 * `clockSkew`, so ID token times are judged by the same clock as everything else.
 */
export function makeClient(ctx: Pick<Context, 'now'>, provider: OAuthConfig<any>): OAuthClient {
  const overrides = { ...(provider.client ?? {}) }
  const clientId = (overrides.client_id as string | undefined) ?? provider.clientId
  if (!clientId) {
    throw new AuthError('Configuration', `Provider "${provider.id}": expected clientId (or client.client_id), got none`, { status: 500 })
  }
  const secret = (overrides.client_secret as string | undefined) ?? provider.clientSecret
  const method = overrides.token_endpoint_auth_method ?? (secret ? 'client_secret_basic' : 'none')
  const client: oauth.Client = {
    ...(overrides as Record<string, unknown>),
    client_id: clientId,
    token_endpoint_auth_method: method,
    [oauth.clockSkew]: Math.round((ctx.now - Date.now()) / 1000),
  }
  delete (client as Record<string, unknown>).client_secret
  return { client, auth: clientAuth(provider, method, secret) }
}

function clientAuth(provider: OAuthConfig<any>, method: string, secret: string | undefined): oauth.ClientAuth {
  const providerId = provider.id
  const needSecret = (): string => {
    if (secret) return secret
    throw new AuthError('Configuration', `Provider "${providerId}": token_endpoint_auth_method "${method}" needs clientSecret, got none`, { status: 500 })
  }
  switch (method) {
    case 'none':
      return oauth.None()
    case 'client_secret_basic':
      return oauth.ClientSecretBasic(needSecret())
    case 'client_secret_post':
      return oauth.ClientSecretPost(needSecret())
    case 'client_secret_jwt':
      return oauth.ClientSecretJwt(needSecret())
    case 'private_key_jwt': {
      const key = signingKey(providerId, typeof provider.token === 'object' ? provider.token.clientPrivateKey : undefined)
      return async (as, client, body, headers) => oauth.PrivateKeyJwt(await key())(as, client, body, headers)
    }
    default:
      throw new AuthError(
        'Configuration',
        `Provider "${providerId}": expected token_endpoint_auth_method none, client_secret_basic, client_secret_post, client_secret_jwt or private_key_jwt, got "${method}"`,
        { status: 500 },
      )
  }
}

/** The client assertion's key, checked before the sign-in goes anywhere; a JWK is imported when an assertion is made. */
function signingKey(providerId: string, key: WebCryptoKey | PrivateJWK | undefined): () => Promise<oauth.PrivateKey> {
  const refuse = (got: string) =>
    new AuthError('Configuration', `Provider "${providerId}": private_key_jwt needs token.clientPrivateKey, a private CryptoKey or a private JWK, got ${got}`, { status: 500 })
  if (key instanceof CryptoKey) {
    if (key.type !== 'private') throw refuse(`a ${key.type} CryptoKey`)
    return async () => ({ key })
  }
  if (!key || typeof key !== 'object') throw refuse(key === undefined ? 'none' : typeof key)
  if (!('kty' in key)) throw refuse('an object that is neither a CryptoKey nor a JWK ("kty")')
  // Named by its members only: the key's value must never reach a message or a log.
  if (typeof key.d !== 'string') throw refuse(`a JWK without its private part ("d")`)
  const alg = key.alg ?? jwkAlgorithm(key)
  if (!alg) throw refuse(`a ${key.kty}${key.crv ? ` ${key.crv}` : ''} JWK without "alg"`)
  return () =>
    importJWK(key as Parameters<typeof importJWK>[0], alg).then(
      (imported) => ({ key: imported as CryptoKey, kid: key.kid }),
      () => {
        throw refuse(`a JWK that does not import as ${alg}`)
      },
    )
}

function jwkAlgorithm(key: PrivateJWK): string | undefined {
  if (key.kty === 'RSA') return 'RS256'
  if (key.kty === 'EC' && key.crv === 'P-256') return 'ES256'
  if (key.kty === 'OKP' && key.crv === 'Ed25519') return 'EdDSA'
  return undefined
}

export interface RequestOptions {
  [oauth.allowInsecureRequests]?: boolean
  signal: () => AbortSignal
}

/** No provider request may hold a sign-in longer than this, in milliseconds. */
const requestTimeout = 10_000

/** True for http://localhost, 127.0.0.0/8 and [::1]: a developer's own machine. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]'
}

/**
 * Options for every oauth4webapi request. Plain http is refused by oauth4webapi, and by
 * latchkey too, except to loopback addresses, so a provider on the developer's machine (the
 * Demo IdP, a local Keycloak) works without TLS.
 */
export function requestOptions(urls: Array<string | undefined>): RequestOptions {
  const http = urls.filter((u): u is string => typeof u === 'string' && u.startsWith('http:')).map((u) => new URL(u))
  const options: RequestOptions = { signal: () => AbortSignal.timeout(requestTimeout) }
  if (http.length && http.every(isLoopback)) options[oauth.allowInsecureRequests] = true
  return options
}
