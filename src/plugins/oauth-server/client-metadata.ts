/**
 * Client metadata (RFC 7591 §2) as a client states it about itself, in a client ID metadata
 * document or a registration request: checked field by field into a ResolvedClient. Nothing the
 * client says widens what the configuration allows: its scopes are a subset of `scopes`, its grant
 * types of authorization_code and refresh_token, its redirect URIs those RFC 8252 allows.
 */
import { OAuthError } from './errors.js'
import { redirectUriProblem } from './client-options.js'
import type { GrantType, ResolvedClient } from './options.js'

/** What the client says about itself; every field optional until checked. */
export type ClientMetadata = Record<string, unknown>

export interface CheckedMetadata {
  redirectUris: string[]
  name?: string
  logoUri?: string
  clientUri?: string
  scopes: string[]
  grantTypes: GrantType[]
  authMethod: 'none' | 'client_secret_basic' | 'client_secret_post'
}

const bad = (description: string) => new OAuthError('invalid_client_metadata', description)
const badRedirect = (description: string) => new OAuthError('invalid_redirect_uri', description)

function text(metadata: ClientMetadata, name: string, max: number): string | undefined {
  const value = metadata[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !value.trim() || value.length > max) throw bad(`${name} must be a string of 1 to ${max} characters`)
  return value
}

function httpsUrl(metadata: ClientMetadata, name: string): string | undefined {
  const value = text(metadata, name, 2000)
  if (value === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'https:') throw bad(`${name} must be an https URL`)
  return value
}

function list(metadata: ClientMetadata, name: string, max: number): string[] | undefined {
  const value = metadata[name]
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.length > max || value.some((v) => typeof v !== 'string')) throw bad(`${name} must be a list of at most ${max} strings`)
  return value as string[]
}

/**
 * The metadata checked; `methods`: the token endpoint auth methods this kind of client may use (a
 * metadata document: none alone; a registration: a secret too). Throws invalid_client_metadata or
 * invalid_redirect_uri (RFC 7591 §3.2.2) saying which field is wrong.
 */
export function checkMetadata(metadata: ClientMetadata, scopes: string[], methods: CheckedMetadata['authMethod'][]): CheckedMetadata {
  const redirectUris = list(metadata, 'redirect_uris', 10)
  if (!redirectUris?.length) throw badRedirect('redirect_uris must list the URLs the code may be sent to (1 to 10)')
  redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri)
    if (problem) throw badRedirect(`redirect_uris[${i}] ${problem}`)
  })
  const method = metadata.token_endpoint_auth_method ?? methods[0]
  if (typeof method !== 'string' || !(methods as string[]).includes(method)) throw bad(`token_endpoint_auth_method must be ${methods.join(' or ')}`)
  const grants = list(metadata, 'grant_types', 4) ?? ['authorization_code', 'refresh_token']
  if (!grants.includes('authorization_code') || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) throw bad('grant_types may list authorization_code and refresh_token only, authorization_code among them')
  const responses = list(metadata, 'response_types', 2) ?? ['code']
  if (responses.length !== 1 || responses[0] !== 'code') throw bad('response_types must be ["code"]')
  const scope = text(metadata, 'scope', 1000)
  const asked = scope === undefined ? scopes : [...new Set(scope.split(' ').filter(Boolean))]
  const unknown = asked.filter((s) => !scopes.includes(s))
  if (unknown.length) throw bad(`scope names ${unknown.map((s) => JSON.stringify(s.slice(0, 64))).join(', ')}, which this server does not offer`)
  return {
    redirectUris: [...redirectUris],
    name: text(metadata, 'client_name', 100),
    logoUri: httpsUrl(metadata, 'logo_uri'),
    clientUri: httpsUrl(metadata, 'client_uri'),
    scopes: asked.sort(),
    grantTypes: grants as GrantType[],
    authMethod: method as CheckedMetadata['authMethod'],
  }
}

/** The client as the routes read it. */
export function resolvedFrom(clientId: string, checked: CheckedMetadata, name: string, secretHash?: string): ResolvedClient {
  return {
    clientId,
    ...(secretHash !== undefined ? { secretHash } : {}),
    redirectUris: checked.redirectUris,
    name,
    ...(checked.logoUri !== undefined ? { logoUri: checked.logoUri } : {}),
    scopes: checked.scopes,
    grantTypes: checked.grantTypes,
    introspectAny: false,
  }
}
