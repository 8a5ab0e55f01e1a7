import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Netlify's current user (GET https://api.netlify.com/api/v1/user). */
export interface NetlifyProfile {
  id: string
  uid?: string
  full_name: string | null
  avatar_url: string | null
  email: string
  affiliate_id?: string
  site_count?: number
  created_at?: string
  last_login?: string
  login_providers?: string[]
  [key: string]: unknown
}

/** Netlify. Needs `clientId`, `clientSecret`. */
export default function Netlify(options: OAuthUserConfig<NetlifyProfile> = {}): OAuthConfig<NetlifyProfile> {
  const provider = mergeProvider<OAuthConfig<NetlifyProfile>>(
    {
      id: 'netlify',
      name: 'Netlify',
      type: 'oauth',
      authorization: 'https://app.netlify.com/authorize',
      token: 'https://api.netlify.com/oauth/token',
      userinfo: 'https://api.netlify.com/api/v1/user',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.full_name, email: p.email, image: p.avatar_url }),
      style: { brandColor: '#00ad9f' },
    },
    options,
  )
  return readsEnv(provider, Netlify)
}
