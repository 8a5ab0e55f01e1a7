import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** Reddit's identity (GET https://oauth.reddit.com/api/v1/me, scope `identity`). Reddit shares no email. */
export interface RedditProfile {
  id: string
  name: string
  icon_img: string
  snoovatar_img?: string
  created_utc?: number
  has_verified_email?: boolean
  verified?: boolean
  over_18?: boolean
  total_karma?: number
  subreddit?: { display_name_prefixed?: string; icon_img?: string; public_description?: string } | null
  [key: string]: unknown
}

/**
 * Reddit. Needs `clientId`, `clientSecret` (sent as HTTP Basic); scope `identity`.
 * Tokens: 1-hour access tokens; a refresh token only with `authorization: { params: { duration: 'permanent' } }`.
 */
export default function Reddit(options: OAuthUserConfig<RedditProfile> = {}): OAuthConfig<RedditProfile> {
  const provider = mergeProvider<OAuthConfig<RedditProfile>>(
    {
      id: 'reddit',
      name: 'Reddit',
      type: 'oauth',
      authorization: { url: 'https://www.reddit.com/api/v1/authorize', params: { scope: 'identity', duration: 'permanent' } },
      token: 'https://www.reddit.com/api/v1/access_token',
      userinfo: {
        url: 'https://oauth.reddit.com/api/v1/me',
        // Reddit's API rules ask every client for a descriptive User-Agent.
        async request({ tokens, provider }) {
          return (await fetchJson('Reddit', endpointUrl(provider.userinfo, 'https://oauth.reddit.com/api/v1/me'), {
            headers: { Authorization: `Bearer ${tokens.access_token}`, 'User-Agent': 'web:latchkey:v0 (sign-in)' },
          })) as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.name,
        email: null,
        // Reddit HTML-escapes the query string of image URLs.
        image: (p.snoovatar_img || p.icon_img || '').replace(/&amp;/g, '&') || null,
      }),
      style: { brandColor: '#ff4500', logo: svgLogo('<circle cx="12" cy="12" r="12" fill="#ff4500"/><g fill="#fff"><circle cx="5.8" cy="11.2" r="1.7"/><circle cx="18.2" cy="11.2" r="1.7"/><ellipse cx="12" cy="14.2" rx="6.8" ry="4.6"/><circle cx="16.6" cy="5.6" r="1.5"/></g><path fill="none" stroke="#fff" stroke-width="1.2" d="M12 9.6 13.1 5l3.5.6"/><g fill="#ff4500"><circle cx="9.4" cy="13.4" r="1.3"/><circle cx="14.6" cy="13.4" r="1.3"/></g><path fill="none" stroke="#ff4500" stroke-width="1.1" stroke-linecap="round" d="M9.3 16.2c1.7 1 3.7 1 5.4 0"/>') },
    },
    options,
  )
  return readsEnv(provider, Reddit)
}
