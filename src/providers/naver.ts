import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Naver's member profile (GET https://openapi.naver.com/v1/nid/me). */
export interface NaverProfile {
  resultcode: string
  message: string
  response: {
    id: string
    nickname?: string
    name?: string
    email?: string
    gender?: 'F' | 'M' | 'U'
    age?: string
    birthday?: string
    profile_image?: string
    birthyear?: string
    mobile?: string
  }
  [key: string]: unknown
}

/** Naver Login. Needs `clientId`, `clientSecret`. */
export default function Naver(options: OAuthUserConfig<NaverProfile> = {}): OAuthConfig<NaverProfile> {
  const provider = mergeProvider<OAuthConfig<NaverProfile>>(
    {
      id: 'naver',
      name: 'Naver',
      type: 'oauth',
      authorization: 'https://nid.naver.com/oauth2.0/authorize',
      token: 'https://nid.naver.com/oauth2.0/token',
      userinfo: 'https://openapi.naver.com/v1/nid/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.response.id,
        name: p.response.nickname ?? p.response.name ?? null,
        email: p.response.email ?? null,
        image: p.response.profile_image ?? null,
      }),
      style: { brandColor: '#03c75a' },
    },
    options,
  )
  return readsEnv(provider, Naver)
}
