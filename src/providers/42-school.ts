import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The 42 API's current user (GET /v2/me), the fields sign-in uses. */
export interface FortyTwoProfile {
  id: number
  email: string
  login: string
  first_name: string
  last_name: string
  usual_full_name: string | null
  usual_first_name: string | null
  displayname: string
  url: string
  phone: string | null
  image: {
    link: string | null
    versions: { large: string | null; medium: string | null; small: string | null; micro: string | null }
  }
  'staff?': boolean
  pool_month?: string
  pool_year?: string
  wallet?: number
  campus?: Array<{ id: number; name: string; time_zone: string }>
  [key: string]: unknown
}

/** 42 School (intra.42.fr). Needs `clientId`, `clientSecret`. */
export default function FortyTwo(options: OAuthUserConfig<FortyTwoProfile> = {}): OAuthConfig<FortyTwoProfile> {
  const provider = mergeProvider<OAuthConfig<FortyTwoProfile>>(
    {
      id: '42-school',
      name: '42 School',
      type: 'oauth',
      authorization: { url: 'https://api.intra.42.fr/oauth/authorize', params: { scope: 'public' } },
      token: 'https://api.intra.42.fr/oauth/token',
      userinfo: 'https://api.intra.42.fr/v2/me',
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: String(p.id),
        name: p.usual_full_name ?? p.displayname,
        email: p.email,
        image: p.image?.link ?? null,
      }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, FortyTwo)
}
