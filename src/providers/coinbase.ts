import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Coinbase's current user (GET /v2/user); `email` needs scope `wallet:user:email`. */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string | null
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string
    resource: 'user'
    resource_path: string
    email?: string
    time_zone?: string
    native_currency?: string
    country?: { code: string; name: string }
    created_at?: string
  }
  [key: string]: unknown
}

/** Coinbase (Coinbase App OAuth2). Needs `clientId`, `clientSecret`. */
export default function Coinbase(options: OAuthUserConfig<CoinbaseProfile> = {}): OAuthConfig<CoinbaseProfile> {
  const provider = mergeProvider<OAuthConfig<CoinbaseProfile>>(
    {
      id: 'coinbase',
      name: 'Coinbase',
      type: 'oauth',
      authorization: { url: 'https://login.coinbase.com/oauth2/auth', params: { scope: 'wallet:user:email wallet:user:read' } },
      token: 'https://login.coinbase.com/oauth2/token',
      userinfo: 'https://api.coinbase.com/v2/user',
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.data.id,
        name: p.data.name ?? p.data.username,
        email: p.data.email ?? null,
        image: p.data.avatar_url,
      }),
      style: { brandColor: '#0052ff' },
    },
    options,
  )
  return readsEnv(provider, Coinbase)
}
