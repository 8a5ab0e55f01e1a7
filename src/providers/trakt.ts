import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, trimSlash, readsEnv, takes } from './lib/index.js'

/** Trakt's user settings' `user` (GET /users/me?extended=full). Trakt shares no email. */
export interface TraktProfile {
  username: string
  private: boolean
  name: string | null
  vip: boolean
  vip_ep: boolean
  ids: { slug: string; uuid?: string }
  joined_at?: string
  location?: string | null
  about?: string | null
  gender?: string | null
  age?: number | null
  images?: { avatar: { full: string } }
  [key: string]: unknown
}

/**
 * Trakt. Needs `clientId`, `clientSecret`; `issuer` for the staging API
 * (`https://api-staging.trakt.tv`). Every API call carries the client id as `trakt-api-key`.
 */
export default function Trakt(options: OAuthUserConfig<TraktProfile> = {}): OAuthConfig<TraktProfile> {
  const api = trimSlash(options.issuer ?? 'https://api.trakt.tv')
  const web = api === 'https://api.trakt.tv' ? 'https://trakt.tv' : api
  const url = `${api}/users/me?extended=full`
  const provider = mergeProvider<OAuthConfig<TraktProfile>>(
    {
      id: 'trakt',
      name: 'Trakt',
      type: 'oauth',
      authorization: `${web}/oauth/authorize`,
      token: `${api}/oauth/token`,
      userinfo: {
        url,
        async request({ tokens, provider }) {
          return (await fetchJson('Trakt', endpointUrl(provider.userinfo, url), {
            headers: {
              Authorization: `Bearer ${tokens.access_token}`,
              'trakt-api-version': '2',
              'trakt-api-key': provider.clientId ?? '',
            },
          })) as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.ids.slug, name: p.name || p.username, email: null, image: p.images?.avatar?.full ?? null }),
      style: { brandColor: '#ed1c24' },
    },
    options,
  )
  return readsEnv(provider, Trakt, takes('issuer'))
}
