import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The WordPress.com user (GET https://public-api.wordpress.com/rest/v1/me). */
export interface WordpressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  email_verified?: boolean
  primary_blog?: number
  primary_blog_url?: string
  language?: string
  avatar_URL: string
  profile_URL: string
  site_count?: number
  [key: string]: unknown
}

/** WordPress.com. Needs `clientId`, `clientSecret`; scope `auth`. */
export default function WordPress(options: OAuthUserConfig<WordpressProfile> = {}): OAuthConfig<WordpressProfile> {
  const provider = mergeProvider<OAuthConfig<WordpressProfile>>(
    {
      id: 'wordpress',
      name: 'WordPress.com',
      type: 'oauth',
      authorization: { url: 'https://public-api.wordpress.com/oauth2/authorize', params: { scope: 'auth' } },
      token: 'https://public-api.wordpress.com/oauth2/token',
      userinfo: 'https://public-api.wordpress.com/rest/v1/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.ID), name: p.display_name, email: p.email, image: p.avatar_URL }),
      style: { brandColor: '#3499cd' },
    },
    options,
  )
  return readsEnv(provider, WordPress)
}
