import type { OAuthConfig, OAuthUserConfig, TokenSet } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** TikTok's user info (GET /v2/user/info/ with `fields`). TikTok shares no email. */
export interface TikTokProfile {
  data: {
    user: {
      open_id: string
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name: string
      username?: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
      follower_count?: number
    }
  }
  error: { code: string; message: string; log_id: string }
  [key: string]: unknown
}

/**
 * TikTok (Login Kit for Web). Needs `clientId` (the client key) and `clientSecret`. TikTok names
 * the client `client_key`, so the authorization and token requests are its own.
 */
export default function TikTok(options: OAuthUserConfig<TikTokProfile> = {}): OAuthConfig<TikTokProfile> {
  const tokenUrl = 'https://open.tiktokapis.com/v2/oauth/token/'
  const provider = mergeProvider<OAuthConfig<TikTokProfile>>(
    {
      id: 'tiktok',
      name: 'TikTok',
      type: 'oauth',
      authorization: {
        url: 'https://www.tiktok.com/v2/auth/authorize/',
        params: { scope: 'user.info.basic', client_key: options.clientId },
      },
      token: {
        url: tokenUrl,
        async request({ params, provider, redirectUri }) {
          const body = new URLSearchParams({
            client_key: provider.clientId ?? '',
            client_secret: provider.clientSecret ?? '',
            code: params.code ?? '',
            grant_type: 'authorization_code',
            redirect_uri: redirectUri,
          })
          const tokens = await fetchJson<TokenSet>('TikTok', endpointUrl(provider.token, tokenUrl), {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body,
          })
          return { tokens }
        },
      },
      userinfo: 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name,username',
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.data.user.open_id,
        name: p.data.user.display_name || p.data.user.username || null,
        email: null,
        image: p.data.user.avatar_url ?? null,
      }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, TikTok)
}
