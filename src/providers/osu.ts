import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The osu! API v2 user (GET /api/v2/me). osu! shares no email. */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  default_group?: string
  is_active?: boolean
  is_bot?: boolean
  is_online?: boolean
  is_supporter?: boolean
  playmode?: string
  profile_colour?: string | null
  join_date?: string
  [key: string]: unknown
}

/** osu!. Needs `clientId`, `clientSecret`; scope `identify`. */
export default function Osu(options: OAuthUserConfig<OsuProfile> = {}): OAuthConfig<OsuProfile> {
  const provider = mergeProvider<OAuthConfig<OsuProfile>>(
    {
      id: 'osu',
      name: 'osu!',
      type: 'oauth',
      authorization: { url: 'https://osu.ppy.sh/oauth/authorize', params: { scope: 'identify' } },
      token: 'https://osu.ppy.sh/oauth/token',
      userinfo: 'https://osu.ppy.sh/api/v2/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.id), name: p.username, email: null, image: p.avatar_url }),
      style: { brandColor: '#ff66aa' },
    },
    options,
  )
  return readsEnv(provider, Osu)
}
