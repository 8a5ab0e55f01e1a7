import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** The Zoom user of the token (GET https://api.zoom.us/v2/users/me). */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name?: string
  email: string
  type: number
  role_name?: string
  pmi?: number
  use_pmi?: boolean
  personal_meeting_url?: string
  timezone?: string
  verified?: number
  dept?: string
  created_at?: string
  last_login_time?: string
  pic_url?: string
  language?: string
  phone_number?: string
  status?: string
  account_id?: string
  [key: string]: unknown
}

/**
 * Zoom. Needs `clientId`, `clientSecret` (sent as HTTP Basic).
 * Tokens: 1-hour access tokens and a refresh token that rotates on each use.
 */
export default function Zoom(options: OAuthUserConfig<ZoomProfile> = {}): OAuthConfig<ZoomProfile> {
  const provider = mergeProvider<OAuthConfig<ZoomProfile>>(
    {
      id: 'zoom',
      name: 'Zoom',
      type: 'oauth',
      authorization: 'https://zoom.us/oauth/authorize',
      token: 'https://zoom.us/oauth/token',
      userinfo: 'https://api.zoom.us/v2/users/me',
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.display_name || [p.first_name, p.last_name].filter(Boolean).join(' ') || null,
        email: p.email,
        image: p.pic_url ?? null,
      }),
      style: { brandColor: '#0b5cff', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#0b5cff"/><rect x="4" y="8" width="10.5" height="8" rx="2" fill="#fff"/><path fill="#fff" d="m15.5 11 4.5-3v8l-4.5-3z"/>') },
    },
    options,
  )
  return readsEnv(provider, Zoom)
}
