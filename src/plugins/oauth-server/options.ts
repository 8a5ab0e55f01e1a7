/**
 * What `oauthServer()` takes, checked once at start-up: every refusal names the option and says
 * the fix. The resolved form is what the routes read; client secrets are kept only as SHA-256
 * hashes, compared in constant time.
 */
import { configurationError } from 'latchkey/server'
import type { JWK } from 'jose'
import { resolveCorsOrigins } from './cors-origins.js'
import {
  isLoopbackHost,
  redirectUriProblem,
  resolveDocuments,
  resolveRegistration,
  secretHash,
  type ClientIdMetadataDocumentOptions,
  type RegistrationOptions,
  type ResolvedDocuments,
  type ResolvedRegistration,
} from './client-options.js'

export { isLoopbackHost, secretHash }

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials' | typeof deviceCodeGrant

/** The device authorization grant's `grant_type` (RFC 8628 §3.4): a client lists it in `grantTypes` to use the device flow. */
export const deviceCodeGrant = 'urn:ietf:params:oauth:grant-type:device_code'

export interface OAuthClientConfig {
  /** The client's `client_id`: letters, digits and `-._~:/` (a URL is fine). */
  clientId: string
  /** A confidential client's secret (at least 32 characters); none: a public client (a native app, a CLI, an MCP client), which must use PKCE and cannot use client_credentials. */
  clientSecret?: string
  /**
   * Where the authorization code may go, each compared whole with the request's `redirect_uri`
   * (no prefix, case or trailing-slash leeway). `http://127.0.0.1/...` and `http://[::1]/...`
   * match any port (RFC 8252 §7.3); other `http:` URLs only on `localhost`.
   */
  redirectUris: string[]
  /** Shown on the consent page. */
  name: string
  /** An https image shown beside the name on the consent page. */
  logoUri?: string
  /** The scopes the client may ask for; default: all of `scopes`. */
  scopes?: string[]
  /** Default: `authorization_code` and `refresh_token`; `client_credentials` needs `clientSecret`. */
  grantTypes?: GrantType[]
  /** The client may introspect tokens issued to any client (a resource server); otherwise only its own. */
  introspectAny?: boolean
}

/** A scope's words on the consent page: one sentence, or one per language tag (`en` is the fallback). */
export type ScopeWords = string | ({ en: string } & Record<string, string>)

export interface OAuthServerOptions {
  clients: OAuthClientConfig[]
  /** Every scope a client may ask for, with what it lets the client do, in words ("Read your tools"). */
  scopes: Record<string, ScopeWords>
  /** The resource servers tokens are for (RFC 8707): absolute https URLs (http on loopback), no fragment. A token names exactly one as `aud`. */
  resources: string[]
  /** Seconds an access token lasts; default 300 (5 minutes), at most 3600. */
  accessTokenTtl?: number
  /** Seconds a refresh token lasts from its issue (each use rotates it); default 30 days. */
  refreshTokenTtl?: number
  /** Refuse authorization requests that did not come through PAR (RFC 9126); default false. */
  requirePar?: boolean
  /**
   * The app's own private signing keys (JWKs with `kid` and `alg`: RS256, ES256 or EdDSA), the
   * first signs and all are published; none: keys are made and kept in the adapter (encrypted
   * under the app's secret), rotated every `keyRotationDays`.
   */
  signingKeys?: JWK[]
  /** Days a generated key signs before a new one takes over; default 30. */
  keyRotationDays?: number
  /** Accept an https URL as client_id, fetching the client ID metadata document it names (the MCP way); default off. */
  clientIdMetadataDocuments?: boolean | ClientIdMetadataDocumentOptions
  /** Dynamic client registration (RFC 7591) at /oauth2/register: `{ open: true }` or `{ initialAccessToken }`; default off. */
  registration?: RegistrationOptions
  /** Seconds a device code (RFC 8628) lasts; default 600, at most 1800. */
  deviceCodeTtl?: number
  /** Seconds a device must wait between polls at first; default 5. */
  devicePollInterval?: number
  /** Require DPoP proofs at the token endpoint to carry the server's nonce (RFC 9449 §8); default false. */
  dpopNonce?: boolean
  /** When the user signs out everywhere: 'revoke' (default) stops every app they allowed (its refresh and access tokens), 'keep' leaves them. */
  grantsOnSignOutEverywhere?: GrantsOnEvent
  /** When the user's password is reset by email: 'revoke' (default) or 'keep', as `grantsOnSignOutEverywhere`. */
  grantsOnPasswordReset?: GrantsOnEvent
  /**
   * Origins whose pages may call the token, revocation, userinfo, registration and PAR endpoints
   * (CORS, never with credentials), beside the origins of public clients' https redirect URIs.
   */
  corsOrigins?: string[]
}

/** What an event of the user's account does to the apps they allowed. */
export type GrantsOnEvent = 'revoke' | 'keep'

/** A checked authorization request: what the code will carry. */
export interface AuthorizationRequest {
  client_id: string
  redirect_uri: string
  /** Space-separated, sorted. */
  scope: string
  code_challenge: string
  resource: string
  state?: string
  /** OpenID Connect (oidc.ts): echoed in the ID token. */
  nonce?: string
  /** `none`, `login` or `consent`. */
  prompt?: string
  /** Seconds: an older sign-in is asked again. */
  max_age?: string
  /** RFC 9449 §10: the code is bound to this DPoP key's thumbprint. */
  dpop_jkt?: string
}

export interface ResolvedClient {
  clientId: string
  /** SHA-256 of the secret, hex; absent for a public client. */
  secretHash?: string
  redirectUris: string[]
  name: string
  logoUri?: string
  scopes: string[]
  grantTypes: GrantType[]
  introspectAny: boolean
}

export interface ResolvedOAuthServer {
  clients: Map<string, ResolvedClient>
  scopes: Record<string, ScopeWords>
  resources: string[]
  accessTokenTtl: number
  refreshTokenTtl: number
  requirePar: boolean
  signingKeys?: JWK[]
  keyRotationSeconds: number
  documents?: ResolvedDocuments
  registration?: ResolvedRegistration
  deviceCodeTtl: number
  devicePollInterval: number
  dpopNonce: boolean
  grantsOnSignOutEverywhere: GrantsOnEvent
  grantsOnPasswordReset: GrantsOnEvent
  corsOrigins: ReadonlySet<string>
}

const day = 24 * 60 * 60
const grantTypes: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials', deviceCodeGrant]
const algorithms = ['RS256', 'ES256', 'EdDSA']
const fail = (what: string) => configurationError(`latchkey: oauthServer ${what}`)
const shown = (value: unknown) => JSON.stringify(value)


function checkUrl(value: unknown, where: string, { https = true } = {}): URL {
  let url: URL
  try {
    url = new URL(value as string)
  } catch {
    throw fail(`${where} must be an absolute URL, got ${shown(value)}`)
  }
  if (url.hash || String(value).includes('#')) throw fail(`${where} must have no fragment (#...), got ${shown(value)}`)
  if (https && url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw fail(`${where} must use https (http only on 127.0.0.1, [::1] or localhost), got ${shown(value)}`)
  }
  return url
}

function checkClient(client: OAuthClientConfig, at: string, scopes: string[]): Omit<ResolvedClient, 'secretHash'> & { secret?: string } {
  if (!client || typeof client !== 'object') throw fail(`${at} must be an object with clientId, redirectUris and name`)
  if (typeof client.clientId !== 'string' || !/^[\w\-.~:/]{1,255}$/.test(client.clientId)) {
    throw fail(`${at}.clientId must be 1 to 255 letters, digits or -._~:/ , got ${shown(client.clientId)}`)
  }
  const named = `${at} ("${client.clientId}")`
  if (typeof client.name !== 'string' || !client.name.trim()) throw fail(`${named} needs a name, shown on the consent page`)
  if (client.clientSecret !== undefined && (typeof client.clientSecret !== 'string' || client.clientSecret.length < 32)) {
    throw fail(`${named}.clientSecret must be a string of at least 32 characters (make one with: openssl rand -base64 32), or left out for a public client`)
  }
  const types = client.grantTypes ?? ['authorization_code', 'refresh_token']
  if (!Array.isArray(types) || !types.length || types.some((t) => !grantTypes.includes(t))) throw fail(`${named}.grantTypes must list some of ${grantTypes.join(', ')}, got ${shown(client.grantTypes)}`)
  if (types.includes('client_credentials') && client.clientSecret === undefined) throw fail(`${named} uses client_credentials, which needs a clientSecret: a public client cannot keep one`)
  const redirects = client.redirectUris ?? []
  if (!Array.isArray(redirects)) throw fail(`${named}.redirectUris must be a list of URLs`)
  if (types.includes('authorization_code') && !redirects.length) throw fail(`${named} uses authorization_code and needs redirectUris: the URLs the code may be sent to`)
  redirects.forEach((uri, i) => {
    const problem = redirectUriProblem(uri)
    if (problem) throw fail(`${named}.redirectUris[${i}] ${problem}, got ${shown(uri)}`)
  })
  if (client.logoUri !== undefined) checkUrl(client.logoUri, `${named}.logoUri`)
  const allowed = client.scopes ?? scopes
  if (!Array.isArray(allowed)) throw fail(`${named}.scopes must be a list of scope names`)
  for (const scope of allowed) if (!scopes.includes(scope)) throw fail(`${named}.scopes lists ${shown(scope)}, which is not in scopes; add it there with its words`)
  return {
    clientId: client.clientId,
    secret: client.clientSecret,
    redirectUris: [...redirects],
    name: client.name,
    logoUri: client.logoUri,
    scopes: [...allowed],
    grantTypes: [...types],
    introspectAny: client.introspectAny === true,
  }
}

function seconds(value: number | undefined, fallback: number, where: string, max: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1 || value > max) throw fail(`${where} must be a whole number of seconds from 1 to ${max}, got ${shown(value)}`)
  return value
}

function onEvent(value: GrantsOnEvent | undefined, where: string): GrantsOnEvent {
  if (value === undefined) return 'revoke'
  if (value !== 'revoke' && value !== 'keep') throw fail(`${where} must be 'revoke' or 'keep', got ${shown(value)}`)
  return value
}

/** The options, checked; throws `Configuration` with the fix. */
export function resolveOptions(options: OAuthServerOptions): ResolvedOAuthServer {
  if (!options || typeof options !== 'object') throw fail('needs options: { clients, scopes, resources }')
  const scopeTable = options.scopes
  if (!scopeTable || typeof scopeTable !== 'object' || Array.isArray(scopeTable)) throw fail(`scopes must be an object of scope name to its words ({ 'tools:read': 'Read your tools' })`)
  for (const [scope, words] of Object.entries(scopeTable)) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) throw fail(`scopes has ${shown(scope)}, which is no scope token (RFC 6749 §3.3: printable ASCII, no space, quote or backslash)`)
    const english = typeof words === 'string' ? words : words?.en
    if (typeof english !== 'string' || !english.trim()) throw fail(`scopes["${scope}"] needs its words: a sentence, or { en: ..., <language>: ... }`)
  }
  const scopes = Object.keys(scopeTable)
  if (!Array.isArray(options.resources) || !options.resources.length) throw fail(`needs resources: the URLs of the APIs tokens are for, such as ["https://mcp.example.com"]`)
  options.resources.forEach((r, i) => checkUrl(r, `resources[${i}]`))
  if (!Array.isArray(options.clients)) throw fail('needs clients: a list of { clientId, redirectUris, name }')
  const clients = new Map<string, ResolvedClient>()
  for (const [i, given] of options.clients.entries()) {
    const { secret, ...client } = checkClient(given, `clients[${i}]`, scopes)
    if (clients.has(client.clientId)) throw fail(`clients lists "${client.clientId}" twice; give each client its own clientId`)
    clients.set(client.clientId, { ...client, ...(secret !== undefined ? { secretHash: secretHash(secret) } : {}) })
  }
  if (options.signingKeys !== undefined) {
    if (!Array.isArray(options.signingKeys) || !options.signingKeys.length) throw fail('signingKeys must be a list of private JWKs, the one that signs first; or left out to have keys made and kept in the adapter')
    options.signingKeys.forEach((key, i) => {
      if (typeof key?.kid !== 'string' || !key.kid) throw fail(`signingKeys[${i}] needs a kid`)
      if (!algorithms.includes(key.alg as string)) throw fail(`signingKeys[${i}] needs alg ${algorithms.join(', ')}, got ${shown(key.alg)}`)
      if (key.d === undefined) throw fail(`signingKeys[${i}] ("${key.kid}") is a public key; give the private JWK (with "d")`)
    })
  }
  return {
    clients,
    scopes: scopeTable,
    resources: [...options.resources],
    accessTokenTtl: seconds(options.accessTokenTtl, 300, 'accessTokenTtl', 3600),
    refreshTokenTtl: seconds(options.refreshTokenTtl, 30 * day, 'refreshTokenTtl', 365 * day),
    requirePar: options.requirePar === true,
    signingKeys: options.signingKeys,
    deviceCodeTtl: seconds(options.deviceCodeTtl, 600, 'deviceCodeTtl', 1800),
    devicePollInterval: seconds(options.devicePollInterval, 5, 'devicePollInterval', 60),
    dpopNonce: options.dpopNonce === true,
    keyRotationSeconds: seconds(options.keyRotationDays === undefined ? undefined : options.keyRotationDays * day, 30 * day, 'keyRotationDays (in seconds)', 365 * day),
    documents: resolveDocuments(options.clientIdMetadataDocuments),
    registration: resolveRegistration(options.registration),
    grantsOnSignOutEverywhere: onEvent(options.grantsOnSignOutEverywhere, 'grantsOnSignOutEverywhere'),
    grantsOnPasswordReset: onEvent(options.grantsOnPasswordReset, 'grantsOnPasswordReset'),
    corsOrigins: resolveCorsOrigins(options.corsOrigins, clients.values()),
  }
}

