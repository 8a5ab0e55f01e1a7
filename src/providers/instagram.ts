import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The Instagram professional account (GET graph.instagram.com/me with Instagram Login). No email. */
export interface InstagramProfile {
  id: string
  user_id?: string
  username: string
  name?: string
  account_type?: 'BUSINESS' | 'MEDIA_CREATOR' | string
  profile_picture_url?: string
  followers_count?: number
  media_count?: number
  [key: string]: unknown
}

/** Instagram (Instagram API with Instagram Login). Needs `clientId` (the Instagram app id), `clientSecret`. */
export default function Instagram(options: OAuthUserConfig<InstagramProfile> = {}): OAuthConfig<InstagramProfile> {
  const provider = mergeProvider<OAuthConfig<InstagramProfile>>(
    {
      id: 'instagram',
      name: 'Instagram',
      type: 'oauth',
      authorization: { url: 'https://www.instagram.com/oauth/authorize', params: { scope: 'instagram_business_basic' } },
      token: 'https://api.instagram.com/oauth/access_token',
      userinfo: 'https://graph.instagram.com/me?fields=id,user_id,username,name,account_type,profile_picture_url',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name || p.username, email: null, image: p.profile_picture_url ?? null }),
      style: { brandColor: '#e1306c' },
    },
    options,
  )
  return readsEnv(provider, Instagram)
}
