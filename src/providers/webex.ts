import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, trimSlash, readsEnv } from './lib/index.js'

/** The Webex person of the token (GET /v1/people/me). */
export interface WebexProfile {
  id: string
  emails: string[]
  displayName?: string
  nickName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId?: string
  type?: 'person' | 'bot'
  created?: string
  [key: string]: unknown
}

/** Webex (Cisco). Needs `clientId`, `clientSecret`; `apiBaseUrl` for another Webex API host (default `https://webexapis.com/v1`). */
export default function Webex(options: OAuthUserConfig<WebexProfile> & { apiBaseUrl?: string } = {}): OAuthConfig<WebexProfile> {
  const { apiBaseUrl, ...rest } = options
  const api = trimSlash(apiBaseUrl ?? 'https://webexapis.com/v1')
  const provider = mergeProvider<OAuthConfig<WebexProfile>>(
    {
      id: 'webex',
      name: 'Webex',
      type: 'oauth',
      authorization: { url: `${api}/authorize`, params: { scope: 'spark:kms spark:people_read' } },
      token: `${api}/access_token`,
      userinfo: `${api}/people/me`,
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.displayName ?? null, email: p.emails?.[0] ?? null, image: p.avatar ?? null }),
      style: { brandColor: '#000000' },
    },
    rest,
    options,
  )
  return readsEnv(provider, Webex)
}
