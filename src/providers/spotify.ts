import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** Spotify's current user (GET https://api.spotify.com/v1/me); `email` needs scope `user-read-email`. */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  email?: string
  country?: string
  product?: string
  uri: string
  href: string
  external_urls: { spotify: string }
  followers?: { href: string | null; total: number }
  images: Array<{ url: string; height: number | null; width: number | null }>
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  type: 'user'
  [key: string]: unknown
}

/**
 * Spotify. Needs `clientId`, `clientSecret`; scope `user-read-email`.
 * Tokens: 1-hour access tokens and a refresh token; a refresh may answer a new one (stored when it does).
 */
export default function Spotify(options: OAuthUserConfig<SpotifyProfile> = {}): OAuthConfig<SpotifyProfile> {
  const provider = mergeProvider<OAuthConfig<SpotifyProfile>>(
    {
      id: 'spotify',
      name: 'Spotify',
      type: 'oauth',
      authorization: { url: 'https://accounts.spotify.com/authorize', params: { scope: 'user-read-email' } },
      token: 'https://accounts.spotify.com/api/token',
      userinfo: 'https://api.spotify.com/v1/me',
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.display_name, email: p.email ?? null, image: p.images?.[0]?.url ?? null }),
      style: { brandColor: '#1db954', logo: svgLogo('<circle cx="12" cy="12" r="12" fill="#1db954"/><g fill="none" stroke="#191414" stroke-linecap="round"><path stroke-width="2.3" d="M5.6 9.2c4.2-1.3 9-.9 12.8 1.2"/><path stroke-width="1.9" d="M6.4 12.6c3.5-1 7.3-.6 10.4 1"/><path stroke-width="1.6" d="M7.2 15.8c2.8-.8 5.8-.5 8.3.8"/></g>') },
    },
    options,
  )
  return readsEnv(provider, Spotify)
}
