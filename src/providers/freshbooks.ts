import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** FreshBooks' identity (GET /auth/api/v1/users/me). */
export interface FreshbooksProfile {
  response: {
    id: number
    identity_id?: number
    identity_uuid?: string
    first_name: string
    last_name: string
    email: string
    language?: string
    confirmed_at?: string
    created_at?: string
    business_memberships?: Array<{ id: number; role: string; business: { id: number; name: string; account_id?: string } }>
    [key: string]: unknown
  }
  [key: string]: unknown
}

/** FreshBooks. Needs `clientId`, `clientSecret`. */
export default function Freshbooks(options: OAuthUserConfig<FreshbooksProfile> = {}): OAuthConfig<FreshbooksProfile> {
  const provider = mergeProvider<OAuthConfig<FreshbooksProfile>>(
    {
      id: 'freshbooks',
      name: 'FreshBooks',
      type: 'oauth',
      authorization: 'https://auth.freshbooks.com/oauth/authorize',
      token: 'https://api.freshbooks.com/auth/oauth/token',
      userinfo: 'https://api.freshbooks.com/auth/api/v1/users/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: String(p.response.id),
        name: [p.response.first_name, p.response.last_name].filter(Boolean).join(' ') || null,
        email: p.response.email,
        image: null,
      }),
      style: { brandColor: '#0075dd' },
    },
    options,
  )
  return readsEnv(provider, Freshbooks)
}
