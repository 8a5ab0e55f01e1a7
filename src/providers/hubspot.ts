import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** HubSpot's access-token metadata (GET /oauth/v1/access-tokens/{token}); `user` is the email. */
export interface HubSpotProfile {
  token: string
  user: string
  hub_domain: string
  scopes: string[]
  hub_id: number
  app_id: number
  expires_in: number
  user_id: number
  token_type: string
  signed_access_token?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * HubSpot. Needs `clientId`, `clientSecret`; scope `oauth`.
 * Tokens: 30-minute access tokens and a refresh token that does not expire.
 */
export default function HubSpot(options: OAuthUserConfig<HubSpotProfile> = {}): OAuthConfig<HubSpotProfile> {
  const base = 'https://api.hubapi.com/oauth/v1/access-tokens'
  const provider = mergeProvider<OAuthConfig<HubSpotProfile>>(
    {
      id: 'hubspot',
      name: 'HubSpot',
      type: 'oauth',
      authorization: { url: 'https://app.hubspot.com/oauth/authorize', params: { scope: 'oauth' } },
      token: 'https://api.hubapi.com/oauth/v1/token',
      userinfo: {
        url: base,
        // There is no /me: the token's own metadata names the user.
        async request({ tokens, provider }) {
          const url = `${endpointUrl(provider.userinfo, base).replace(/\/+$/, '')}/${encodeURIComponent(tokens.access_token ?? '')}`
          return (await fetchJson('HubSpot', url)) as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.user_id), name: p.user, email: p.user, image: null }),
      style: { brandColor: '#ff7a59' },
    },
    options,
  )
  return readsEnv(provider, HubSpot)
}
