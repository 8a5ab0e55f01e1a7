import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The X (Twitter) API v2 user (GET /2/users/me with `user.fields`). */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    profile_image_url?: string
    /** With scope `users.email` and the field `confirmed_email`. */
    confirmed_email?: string
    created_at?: string
    description?: string
    location?: string
    protected?: boolean
    verified?: boolean
    url?: string
  }
  [key: string]: unknown
}

/**
 * X (Twitter), OAuth 2.0 with PKCE. Needs `clientId`, `clientSecret`; add scope `users.email` for the email.
 * Tokens: 2-hour access tokens; a refresh token only with the `offline.access` scope; it rotates on each use.
 */
export default function Twitter(options: OAuthUserConfig<TwitterProfile> = {}): OAuthConfig<TwitterProfile> {
  const provider = mergeProvider<OAuthConfig<TwitterProfile>>(
    {
      id: 'twitter',
      name: 'Twitter',
      type: 'oauth',
      authorization: { url: 'https://x.com/i/oauth2/authorize', params: { scope: 'users.read tweet.read offline.access' } },
      token: 'https://api.x.com/2/oauth2/token',
      userinfo: 'https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email',
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.data.id,
        name: p.data.name,
        email: p.data.confirmed_email ?? null,
        image: p.data.profile_image_url ?? null,
      }),
      style: { brandColor: '#1da1f2' },
    },
    options,
  )
  return readsEnv(provider, Twitter)
}
