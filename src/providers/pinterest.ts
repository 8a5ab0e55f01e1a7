import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Pinterest's user account (GET https://api.pinterest.com/v5/user_account). Pinterest shares no email. */
export interface PinterestProfile {
  id?: string
  username: string
  account_type: 'PINNER' | 'BUSINESS'
  profile_image: string
  website_url?: string
  business_name?: string | null
  about?: string
  follower_count?: number
  following_count?: number
  pin_count?: number
  [key: string]: unknown
}

/** Pinterest (API v5). Needs `clientId` (the app id), `clientSecret`; scope `user_accounts:read`. */
export default function Pinterest(options: OAuthUserConfig<PinterestProfile> = {}): OAuthConfig<PinterestProfile> {
  const provider = mergeProvider<OAuthConfig<PinterestProfile>>(
    {
      id: 'pinterest',
      name: 'Pinterest',
      type: 'oauth',
      authorization: { url: 'https://www.pinterest.com/oauth', params: { scope: 'user_accounts:read' } },
      token: 'https://api.pinterest.com/v5/oauth/token',
      userinfo: 'https://api.pinterest.com/v5/user_account',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id ?? p.username, name: p.business_name || p.username, email: null, image: p.profile_image }),
      style: { brandColor: '#e60023' },
    },
    options,
  )
  return readsEnv(provider, Pinterest)
}
