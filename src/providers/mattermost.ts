import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, under, readsEnv, needs } from './lib/index.js'

/** A Mattermost user (GET /api/v4/users/me). */
export interface MattermostProfile {
  id: string
  username: string
  email: string
  email_verified?: boolean
  first_name: string
  last_name: string
  nickname: string
  position?: string
  roles?: string
  locale?: string
  auth_service?: string
  create_at?: number
  update_at?: number
  [key: string]: unknown
}

/** Mattermost (a self-hosted server as OAuth 2.0 provider). Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function Mattermost(options: OAuthUserConfig<MattermostProfile> = {}): OAuthConfig<MattermostProfile> {
  const provider = mergeProvider<OAuthConfig<MattermostProfile>>(
    {
      id: 'mattermost',
      name: 'Mattermost',
      type: 'oauth',
      issuer: options.issuer,
      authorization: under(options.issuer, '/oauth/authorize'),
      token: under(options.issuer, '/oauth/access_token'),
      userinfo: under(options.issuer, '/api/v4/users/me'),
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.nickname || [p.first_name, p.last_name].filter(Boolean).join(' ') || p.username,
        email: p.email,
        image: null,
      }),
      style: { brandColor: '#1e325c' },
    },
    options,
  )
  return readsEnv(provider, Mattermost, needs('issuer'))
}
