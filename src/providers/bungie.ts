import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv, needs } from './lib/index.js'

/** The `bungieNetUser` of GET /Platform/User/GetMembershipsForCurrentUser/ (Bungie shares no email). */
export interface BungieProfile {
  membershipId: string
  uniqueName?: string
  displayName: string
  cachedBungieGlobalDisplayName?: string
  cachedBungieGlobalDisplayNameCode?: number
  profilePicturePath?: string
  locale?: string
  firstAccess?: string
  [key: string]: unknown
}

/** Bungie.net. Needs `clientId`, `clientSecret` and `apiKey` (the application's X-API-Key). */
export default function Bungie(options: OAuthUserConfig<BungieProfile> & { apiKey?: string } = {}): OAuthConfig<BungieProfile> {
  const { apiKey, ...rest } = options
  const url = 'https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/'
  const provider = mergeProvider<OAuthConfig<BungieProfile>>(
    {
      id: 'bungie',
      name: 'Bungie',
      type: 'oauth',
      authorization: 'https://www.bungie.net/en/OAuth/Authorize',
      token: 'https://www.bungie.net/Platform/App/OAuth/Token/',
      userinfo: {
        url,
        async request({ tokens, provider }) {
          const body = await fetchJson<{ Response: { bungieNetUser: BungieProfile } }>('Bungie', endpointUrl(provider.userinfo, url), {
            headers: { Authorization: `Bearer ${tokens.access_token}`, 'X-API-Key': apiKey ?? '' },
          })
          return body.Response.bungieNetUser as unknown as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.membershipId,
        name: p.displayName,
        email: null,
        image: p.profilePicturePath ? `https://www.bungie.net${p.profilePicturePath}` : null,
      }),
      style: { brandColor: '#000000' },
    },
    rest,
    options,
  )
  return readsEnv(provider, Bungie, needs('apiKey'))
}
