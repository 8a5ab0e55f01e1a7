import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#1da1f2', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#1da1f2"/><path fill="#fff" d="M4 16.6c2.2 1.4 4.4 2 6.8 1.7 4.6-.6 7.6-4.7 7.3-9.3l1.9-1.8-2.3.4c-.7-1.5-2.5-2.2-4-1.6-1.6.6-2.4 2.3-2 3.9C9.2 9.8 7 8.6 5.4 6.7c-.8 1.7-.3 3.6 1.1 4.6L5 11.1c.3 1.5 1.4 2.5 2.8 2.9l-1.5.3c.6 1.2 1.8 1.9 3 2-1.6 1-3.3 1.2-5.3.3z"/>') },
    },
    options,
  )
  return readsEnv(provider, Twitter)
}
