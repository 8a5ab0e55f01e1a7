import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The Atlassian account of the user (GET https://api.atlassian.com/me). */
export interface AtlassianProfile {
  account_id: string
  account_type: string
  email: string
  email_verified?: boolean
  name: string
  nickname: string
  picture: string
  account_status: 'active' | 'inactive' | 'closed'
  locale?: string
  zoneinfo?: string
  extended_profile?: { job_title?: string; organization?: string; department?: string; location?: string }
  [key: string]: unknown
}

/**
 * Atlassian (OAuth 2.0 3LO apps). Needs `clientId`, `clientSecret`; scopes `read:me read:account` by default.
 * Tokens: 1-hour access tokens; a refresh token with the `offline_access` scope; it rotates on each use.
 */
export default function Atlassian(options: OAuthUserConfig<AtlassianProfile> = {}): OAuthConfig<AtlassianProfile> {
  const provider = mergeProvider<OAuthConfig<AtlassianProfile>>(
    {
      id: 'atlassian',
      name: 'Atlassian',
      type: 'oauth',
      authorization: {
        url: 'https://auth.atlassian.com/authorize',
        params: { audience: 'api.atlassian.com', prompt: 'consent', scope: 'read:me read:account' },
      },
      token: 'https://auth.atlassian.com/oauth/token',
      userinfo: 'https://api.atlassian.com/me',
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.account_id, name: p.name, email: p.email, image: p.picture }),
      style: { brandColor: '#0052cc' },
    },
    options,
  )
  return readsEnv(provider, Atlassian)
}
