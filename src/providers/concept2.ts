import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The Concept2 Logbook user (GET /api/users/me). */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name: string
    last_name: string
    gender?: string
    dob?: string
    email: string
    country?: string
    profile_image: string
    age_restricted?: boolean
    email_permission?: boolean | null
    max_heart_rate?: number | null
    weight?: number | null
    logbook_privacy?: string | null
  }
  [key: string]: unknown
}

/** Concept2 Logbook. Needs `clientId`, `clientSecret`. */
export default function Concept2(options: OAuthUserConfig<Concept2Profile> = {}): OAuthConfig<Concept2Profile> {
  const provider = mergeProvider<OAuthConfig<Concept2Profile>>(
    {
      id: 'concept2',
      name: 'Concept2',
      type: 'oauth',
      authorization: { url: 'https://log.concept2.com/oauth/authorize', params: { scope: 'user:read,results:write' } },
      token: 'https://log.concept2.com/oauth/access_token',
      userinfo: 'https://log.concept2.com/api/users/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: String(p.data.id),
        name: [p.data.first_name, p.data.last_name].filter(Boolean).join(' ') || p.data.username,
        email: p.data.email,
        image: p.data.profile_image,
      }),
      style: { brandColor: '#003a70' },
    },
    options,
  )
  return readsEnv(provider, Concept2)
}
