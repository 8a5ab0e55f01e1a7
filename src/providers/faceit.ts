import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** FACEIT's userinfo answer (GET /auth/v1/resources/userinfo). */
export interface FaceItProfile {
  guid: string
  nickname: string
  email: string
  given_name?: string
  family_name?: string
  picture: string
  locale?: string
  membership?: string
  [key: string]: unknown
}

/** FACEIT Connect. Needs `clientId`, `clientSecret` (sent as HTTP Basic to the token endpoint). */
export default function FaceIt(options: OAuthUserConfig<FaceItProfile> = {}): OAuthConfig<FaceItProfile> {
  const provider = mergeProvider<OAuthConfig<FaceItProfile>>(
    {
      id: 'faceit',
      name: 'FACEIT',
      type: 'oauth',
      authorization: { url: 'https://accounts.faceit.com/accounts', params: { redirect_popup: 'true' } },
      token: 'https://api.faceit.com/auth/v1/oauth/token',
      userinfo: 'https://api.faceit.com/auth/v1/resources/userinfo',
      checks: ['pkce', 'state'],
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.guid, name: p.nickname, email: p.email, image: p.picture ?? null }),
      style: { brandColor: '#ff5500' },
    },
    options,
  )
  return readsEnv(provider, FaceIt)
}
