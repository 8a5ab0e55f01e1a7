import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Dribbble's authenticated user (GET /v2/user). */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  html_url: string
  avatar_url: string
  bio?: string
  location?: string | null
  email?: string
  pro?: boolean
  followers_count?: number
  created_at?: string
  [key: string]: unknown
}

/** Dribbble. Needs `clientId`, `clientSecret`; scope `public` (add `upload` to post shots). */
export default function Dribbble(options: OAuthUserConfig<DribbbleProfile> = {}): OAuthConfig<DribbbleProfile> {
  const provider = mergeProvider<OAuthConfig<DribbbleProfile>>(
    {
      id: 'dribbble',
      name: 'Dribbble',
      type: 'oauth',
      authorization: { url: 'https://dribbble.com/oauth/authorize', params: { scope: 'public' } },
      token: 'https://dribbble.com/oauth/token',
      userinfo: 'https://api.dribbble.com/v2/user',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.id), name: p.name ?? p.login, email: p.email ?? null, image: p.avatar_url }),
      style: { brandColor: '#ea4c89' },
    },
    options,
  )
  return readsEnv(provider, Dribbble)
}
