import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, withQuery, readsEnv } from './lib/index.js'

/** The `response.user` of Foursquare's GET /v2/users/self. */
export interface FoursquareProfile {
  id: string
  firstName: string
  lastName?: string
  gender?: string
  relationship?: string
  canonicalUrl?: string
  homeCity?: string
  photo: { prefix: string; suffix: string }
  contact?: { email?: string; phone?: string }
  [key: string]: unknown
}

/** Foursquare. Needs `clientId`, `clientSecret`; `apiVersion` (the `v` date, YYYYMMDD) pins the API version. */
export default function Foursquare(
  options: OAuthUserConfig<FoursquareProfile> & { apiVersion?: string } = {},
): OAuthConfig<FoursquareProfile> {
  const { apiVersion = '20231010', ...rest } = options
  const url = 'https://api.foursquare.com/v2/users/self'
  const provider = mergeProvider<OAuthConfig<FoursquareProfile>>(
    {
      id: 'foursquare',
      name: 'Foursquare',
      type: 'oauth',
      authorization: 'https://foursquare.com/oauth2/authenticate',
      token: 'https://foursquare.com/oauth2/access_token',
      userinfo: {
        url,
        // The v2 API takes the token as `oauth_token` and needs a version date.
        async request({ tokens, provider }) {
          const query = { oauth_token: tokens.access_token ?? '', v: apiVersion }
          const body = await fetchJson<{ response: { user: FoursquareProfile } }>('Foursquare', withQuery(endpointUrl(provider.userinfo, url), query))
          return body.response.user as unknown as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: [p.firstName, p.lastName].filter(Boolean).join(' '),
        email: p.contact?.email ?? null,
        image: p.photo ? `${p.photo.prefix}original${p.photo.suffix}` : null,
      }),
      style: { brandColor: '#000000' },
    },
    rest,
    options,
  )
  return readsEnv(provider, Foursquare)
}
