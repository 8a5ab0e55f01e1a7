import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Kakao's user information (GET https://kapi.kakao.com/v2/user/me). */
export interface KakaoProfile {
  id: number
  has_signed_up?: boolean
  connected_at?: string
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string }
  kakao_account?: {
    profile_needs_agreement?: boolean
    profile?: { nickname?: string; thumbnail_image_url?: string; profile_image_url?: string; is_default_image?: boolean }
    name?: string
    email_needs_agreement?: boolean
    is_email_valid?: boolean
    is_email_verified?: boolean
    email?: string
    age_range?: string
    birthday?: string
    gender?: 'female' | 'male'
    phone_number?: string
  }
  [key: string]: unknown
}

/** Kakao Login. Needs `clientId` (the REST API key), `clientSecret`. */
export default function Kakao(options: OAuthUserConfig<KakaoProfile> = {}): OAuthConfig<KakaoProfile> {
  const provider = mergeProvider<OAuthConfig<KakaoProfile>>(
    {
      id: 'kakao',
      name: 'Kakao',
      type: 'oauth',
      authorization: 'https://kauth.kakao.com/oauth/authorize',
      token: 'https://kauth.kakao.com/oauth/token',
      userinfo: 'https://kapi.kakao.com/v2/user/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: 'https://kauth.kakao.com/.well-known/jwks.json',
      profile: (p) => ({
        id: String(p.id),
        name: p.kakao_account?.profile?.nickname ?? p.properties?.nickname ?? null,
        email: p.kakao_account?.email ?? null,
        image: p.kakao_account?.profile?.profile_image_url ?? p.properties?.profile_image ?? null,
      }),
      style: { brandColor: '#fee500' },
    },
    options,
  )
  return readsEnv(provider, Kakao)
}
