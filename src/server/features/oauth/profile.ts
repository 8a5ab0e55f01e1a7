/**
 * From the provider's profile and tokens to what latchkey stores: the user (through `profile`)
 * and the account (through `account`).
 */
import type { AdapterAccount, OAuthConfig, Profile, TokenSet, User } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'

/**
 * The default `profile`: `{ id, email, name, image }`. The id is `sub` (OIDC) or `id`, then
 * `sub` (OAuth 2 APIs), always as a string.
 */
export function defaultProfile(provider: OAuthConfig<any>, profile: Profile): User {
  const id = provider.type === 'oidc' ? profile.sub : (profile.id ?? profile.sub)
  return {
    id: id === undefined || id === null ? undefined : String(id),
    email: typeof profile.email === 'string' ? profile.email : null,
    name: str(profile.name) ?? str(profile.preferred_username) ?? str(profile.login) ?? null,
    image: str(profile.picture) ?? str(profile.image) ?? str(profile.avatar_url) ?? null,
  }
}

/** The user from the provider's `profile` callback (or the default), with a string id. */
export async function userFrom(provider: OAuthConfig<any>, profile: Profile, tokens: TokenSet): Promise<User & { id: string }> {
  const user = provider.profile ? await provider.profile(profile, tokens) : defaultProfile(provider, profile)
  if (!user || typeof user !== 'object') {
    throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": expected the profile callback to return a user object, got ${user === null ? 'null' : typeof user}`)
  }
  const id = user.id === undefined || user.id === null ? '' : String(user.id)
  if (!id) {
    throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": expected the profile to carry an id (${provider.type === 'oidc' ? 'sub' : 'id or sub'}), got none`)
  }
  return { ...user, id }
}

const defaultAccountFields = ['access_token', 'id_token', 'refresh_token', 'expires_at', 'scope', 'token_type', 'session_state'] as const

/**
 * The default `account`: access_token, id_token, refresh_token, expires_at, scope, token_type
 * (lower-cased), session_state. `expires_at` is computed from `expires_in` on the request's
 * clock when the provider does not send it.
 */
export function defaultAccount(tokens: TokenSet, nowMs: number): TokenSet {
  const out: TokenSet = {}
  for (const key of defaultAccountFields) {
    if (tokens[key] !== undefined && tokens[key] !== null) (out as Record<string, unknown>)[key] = tokens[key]
  }
  if (out.expires_at === undefined && typeof tokens.expires_in === 'number' && Number.isFinite(tokens.expires_in)) {
    out.expires_at = Math.floor(nowMs / 1000) + Math.floor(tokens.expires_in)
  }
  if (typeof out.token_type === 'string') out.token_type = out.token_type.toLowerCase()
  return out
}

/**
 * The account to link. A custom `account` callback's return value is stored as it is (plus the
 * four identifying fields); returning nothing means the default fields.
 */
export function accountFrom(provider: OAuthConfig<any>, tokens: TokenSet, providerAccountId: string, nowMs: number): AdapterAccount {
  const withExpiry = tokens.expires_at === undefined && typeof tokens.expires_in === 'number'
    ? { ...tokens, expires_at: Math.floor(nowMs / 1000) + Math.floor(tokens.expires_in) }
    : tokens
  const chosen = (provider.account ? provider.account(withExpiry) : undefined) ?? defaultAccount(tokens, nowMs)
  if (typeof chosen !== 'object') {
    throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": expected the account callback to return an object or nothing, got ${typeof chosen}`)
  }
  const fields: Record<string, unknown> = { ...chosen }
  if (typeof fields.token_type === 'string') fields.token_type = fields.token_type.toLowerCase()
  return { ...fields, userId: '', type: provider.type, provider: provider.id, providerAccountId }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined
}
