import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** Yandex ID's user info (GET https://login.yandex.ru/info?format=json). */
export interface YandexProfile {
  id: string
  login: string
  client_id: string
  psuid?: string
  display_name?: string
  real_name?: string
  first_name?: string
  last_name?: string
  sex?: 'male' | 'female' | null
  default_email?: string
  emails?: string[]
  default_avatar_id?: string
  is_avatar_empty?: boolean
  birthday?: string | null
  default_phone?: { id: number; number: string }
  [key: string]: unknown
}

/** Yandex ID. Needs `clientId`, `clientSecret`; scopes `login:info login:email login:avatar`. */
export default function Yandex(options: OAuthUserConfig<YandexProfile> = {}): OAuthConfig<YandexProfile> {
  const url = 'https://login.yandex.ru/info?format=json'
  const provider = mergeProvider<OAuthConfig<YandexProfile>>(
    {
      id: 'yandex',
      name: 'Yandex',
      type: 'oauth',
      authorization: { url: 'https://oauth.yandex.ru/authorize', params: { scope: 'login:info login:email login:avatar' } },
      token: 'https://oauth.yandex.ru/token',
      userinfo: {
        url,
        // Yandex documents `Authorization: OAuth <token>`.
        async request({ tokens, provider }) {
          return (await fetchJson('Yandex', endpointUrl(provider.userinfo, url), { headers: { Authorization: `OAuth ${tokens.access_token}` } })) as Profile
        },
      },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.display_name ?? p.real_name ?? p.first_name ?? p.login,
        email: p.default_email ?? p.emails?.[0] ?? null,
        image: !p.is_avatar_empty && p.default_avatar_id ? `https://avatars.yandex.net/get-yapic/${p.default_avatar_id}/islands-200` : null,
      }),
      style: { brandColor: '#ffcc00' },
    },
    options,
  )
  return readsEnv(provider, Yandex)
}
