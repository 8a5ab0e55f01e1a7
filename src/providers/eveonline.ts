import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** EVE SSO's character info (GET https://login.eveonline.com/oauth/verify). */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn: string
  Scopes: string
  TokenType: string
  CharacterOwnerHash: string
  IntellectualProperty: string
  [key: string]: unknown
}

/** EVE Online (EVE SSO v2). Needs `clientId`, `clientSecret`. A character has no email address. */
export default function EVEOnline(options: OAuthUserConfig<EVEOnlineProfile> = {}): OAuthConfig<EVEOnlineProfile> {
  const provider = mergeProvider<OAuthConfig<EVEOnlineProfile>>(
    {
      id: 'eveonline',
      name: 'EVE Online',
      type: 'oauth',
      authorization: { url: 'https://login.eveonline.com/v2/oauth/authorize', params: { scope: 'publicData' } },
      token: 'https://login.eveonline.com/v2/oauth/token',
      userinfo: 'https://login.eveonline.com/oauth/verify',
      checks: ['pkce', 'state'],
      jwks_endpoint: 'https://login.eveonline.com/oauth/jwks',
      profile: (p) => ({
        id: String(p.CharacterID),
        name: p.CharacterName,
        email: null,
        image: `https://images.evetech.net/characters/${p.CharacterID}/portrait?size=128`,
      }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, EVEOnline)
}
