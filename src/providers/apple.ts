import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { joinName, mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/**
 * Claims of a Sign in with Apple ID token, plus `user`: the JSON Apple posts to the callback
 * (`form_post`) on the first authorization only, with the name the user chose to share.
 */
export interface AppleProfile {
  sub: string
  iss: 'https://appleid.apple.com'
  aud: string
  email?: string
  email_verified?: boolean | 'true' | 'false'
  is_private_email?: boolean | 'true' | 'false'
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2
  transfer_sub?: string
  user?: { name?: { firstName?: string; lastName?: string }; email?: string }
  nonce?: string
  iat?: number
  exp?: number
  auth_time?: number
  [claim: string]: unknown
}

/**
 * Sign in with Apple. Needs `clientId` (the Services ID) and `clientSecret` (the ES256 client
 * secret JWT signed with the team's key). Apple answers with a form POST to the callback.
 * Tokens: a refresh token at sign-in; Apple's access token serves only Apple's token endpoints, not an API.
 */
export default function Apple(options: OIDCUserConfig<AppleProfile> = {}): OIDCConfig<AppleProfile> {
  const provider = mergeProvider<OIDCConfig<AppleProfile>>(
    {
      id: 'apple',
      name: 'Apple',
      type: 'oidc',
      issuer: 'https://appleid.apple.com',
      wellKnown: 'https://appleid.apple.com/.well-known/openid-configuration',
      jwks_endpoint: 'https://appleid.apple.com/auth/keys',
      authorization: { params: { scope: 'name email', response_mode: 'form_post' } },
      checks: ['nonce', 'state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      profile: (p) => ({
        id: p.sub,
        name: joinName(p.user?.name?.firstName, p.user?.name?.lastName),
        email: p.email ?? p.user?.email ?? null,
        image: null,
      }),
      style: { brandColor: '#000000', logo: svgLogo('<rect width="24" height="24" rx="6"/><g fill="#fff"><ellipse cx="10" cy="13.6" rx="3.9" ry="5"/><ellipse cx="14" cy="13.6" rx="3.9" ry="5"/><path d="M12.2 7.8c0-1.8 1.2-3.2 3-3.4 0 1.8-1.2 3.2-3 3.4z"/></g><circle cx="18.7" cy="11.6" r="2.3"/>') },
    },
    options,
  )
  return readsEnv(provider, Apple)
}
