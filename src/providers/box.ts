import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Box's current user (GET /2.0/users/me); `login` is the email address. */
export interface BoxProfile {
  id: string
  type: 'user'
  name: string
  login: string
  avatar_url: string
  created_at?: string
  language?: string
  timezone?: string
  status?: string
  job_title?: string
  [key: string]: unknown
}

/**
 * Box. Needs `clientId`, `clientSecret`.
 * Tokens: 1-hour access tokens and a 60-day refresh token that rotates on each use.
 */
export default function Box(options: OAuthUserConfig<BoxProfile> = {}): OAuthConfig<BoxProfile> {
  const provider = mergeProvider<OAuthConfig<BoxProfile>>(
    {
      id: 'box',
      name: 'Box',
      type: 'oauth',
      authorization: 'https://account.box.com/api/oauth2/authorize',
      token: 'https://api.box.com/oauth2/token',
      userinfo: 'https://api.box.com/2.0/users/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name, email: p.login, image: p.avatar_url }),
      style: { brandColor: '#0061d5' },
    },
    options,
  )
  return readsEnv(provider, Box)
}
