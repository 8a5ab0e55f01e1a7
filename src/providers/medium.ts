import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Medium's authenticated user (GET https://api.medium.com/v1/me). Medium shares no email. */
export interface MediumProfile {
  data: { id: string; username: string; name: string; url: string; imageUrl: string }
  [key: string]: unknown
}

/** Medium (its legacy API; no new integrations are issued). Needs `clientId`, `clientSecret`; scope `basicProfile`. */
export default function Medium(options: OAuthUserConfig<MediumProfile> = {}): OAuthConfig<MediumProfile> {
  const provider = mergeProvider<OAuthConfig<MediumProfile>>(
    {
      id: 'medium',
      name: 'Medium',
      type: 'oauth',
      authorization: { url: 'https://medium.com/m/oauth/authorize', params: { scope: 'basicProfile' } },
      token: 'https://api.medium.com/v1/tokens',
      userinfo: 'https://api.medium.com/v1/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.data.id, name: p.data.name, email: null, image: p.data.imageUrl }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Medium)
}
