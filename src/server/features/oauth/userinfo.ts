/**
 * The user's profile from the userinfo endpoint (plain OAuth 2, or OIDC with `idToken: false`).
 *
 * - A provider module's `userinfo.request({ tokens, provider })` replaces the built-in request
 *   (GitHub asks a second endpoint for the email that way).
 * - OIDC: oauth4webapi's `userInfoRequest` and `processUserInfoResponse`, which requires the
 *   answer's `sub` to be the ID token's.
 * - Plain OAuth 2: the same request, but the answer is any JSON API's (GitHub's `/user` has
 *   `id`, not `sub`), so it is read as JSON after a status check.
 */
import * as oauth from 'oauth4webapi'
import type { OAuthConfig, Profile, TokenSet } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { OAuthClient, RequestOptions } from './client.js'
import { oauthError } from './errors.js'

export async function fetchUserinfo(
  provider: OAuthConfig<any>,
  input: { as: oauth.AuthorizationServer; client: OAuthClient; options: RequestOptions; tokens: TokenSet; subject?: string },
): Promise<Profile> {
  const custom = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined
  try {
    if (custom) return checkProfile(provider, await custom({ tokens: input.tokens, provider }))
    if (!input.as.userinfo_endpoint) {
      throw new AuthError('Configuration', `Provider "${provider.id}": expected a userinfo endpoint for the user's profile, got none`, { status: 500 })
    }
    if (!input.tokens.access_token) throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": expected an access token for the userinfo request, got none`)
    const response = await oauth.userInfoRequest(input.as, input.client.client, input.tokens.access_token, input.options)
    if (provider.type === 'oidc') {
      const subject = input.subject ?? oauth.skipSubjectCheck
      return (await oauth.processUserInfoResponse(input.as, input.client.client, subject, response)) as Profile
    }
    if (!response.ok) {
      throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": userinfo at ${new URL(input.as.userinfo_endpoint).pathname} answered HTTP ${response.status}, expected 200`)
    }
    return checkProfile(provider, await response.json())
  } catch (error) {
    throw oauthError(error, 'callback', 'userinfo', provider.id)
  }
}

function checkProfile(provider: OAuthConfig<any>, profile: unknown): Profile {
  if (!profile || typeof profile !== 'object' || Array.isArray(profile)) {
    throw new AuthError('OAuthCallbackError', `Provider "${provider.id}": expected the userinfo answer to be a JSON object, got ${Array.isArray(profile) ? 'an array' : typeof profile}`)
  }
  return profile as Profile
}
