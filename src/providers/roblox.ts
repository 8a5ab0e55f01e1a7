import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of Roblox OAuth 2.0 (ID token / `/oauth/v1/userinfo`); Roblox shares no email address. */
export interface RobloxProfile extends StandardClaims {
  sub: string
  name: string
  nickname: string
  preferred_username: string
  created_at: number
  profile: string
  picture: string | null
}

/** Roblox. Needs `clientId`, `clientSecret`. */
export default function Roblox(options: OIDCUserConfig<RobloxProfile> = {}): OIDCConfig<RobloxProfile> {
  const provider = mergeProvider<OIDCConfig<RobloxProfile>>(
    {
      id: 'roblox',
      name: 'Roblox',
      type: 'oidc',
      issuer: 'https://apis.roblox.com/oauth/',
      wellKnown: 'https://apis.roblox.com/oauth/.well-known/openid-configuration',
      jwks_endpoint: 'https://apis.roblox.com/oauth/v1/certs',
      authorization: { params: { scope: 'openid profile' } },
      profile: (p) => ({ id: p.sub, name: p.nickname ?? p.name ?? p.preferred_username, email: null, image: p.picture ?? null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Roblox)
}
