import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Strava's authenticated athlete (GET /api/v3/athlete). Strava shares no email. */
export interface StravaProfile {
  id: number
  username: string | null
  resource_state?: number
  firstname: string
  lastname: string
  bio?: string | null
  city?: string | null
  state?: string | null
  country?: string | null
  sex?: 'M' | 'F' | null
  premium?: boolean
  summit?: boolean
  created_at?: string
  updated_at?: string
  profile_medium: string
  profile: string
  [key: string]: unknown
}

/**
 * Strava. Needs `clientId`, `clientSecret`; scope `read`.
 * Tokens: 6-hour access tokens and a refresh token; a refresh may answer a new one (stored when it does).
 */
export default function Strava(options: OAuthUserConfig<StravaProfile> = {}): OAuthConfig<StravaProfile> {
  const provider = mergeProvider<OAuthConfig<StravaProfile>>(
    {
      id: 'strava',
      name: 'Strava',
      type: 'oauth',
      authorization: {
        url: 'https://www.strava.com/oauth/authorize',
        params: { scope: 'read', approval_prompt: 'auto', response_type: 'code' },
      },
      token: 'https://www.strava.com/api/v3/oauth/token',
      userinfo: 'https://www.strava.com/api/v3/athlete',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: String(p.id),
        name: [p.firstname, p.lastname].filter(Boolean).join(' ') || p.username,
        email: null,
        image: p.profile,
      }),
      style: { brandColor: '#fc4c02' },
    },
    options,
  )
  return readsEnv(provider, Strava)
}
