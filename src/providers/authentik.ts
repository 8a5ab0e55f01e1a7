import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an authentik OAuth2/OpenID provider (scopes openid, profile, email). */
export interface AuthentikProfile extends StandardClaims {
  email: string
  email_verified: boolean
  name: string
  given_name: string
  preferred_username: string
  nickname: string
  groups: string[]
}

/** authentik, the self-hosted identity provider. Needs `issuer` (`https://host/application/o/<app-slug>/`), `clientId`, `clientSecret`. */
export default function Authentik(options: OIDCUserConfig<AuthentikProfile> = {}): OIDCConfig<AuthentikProfile> {
  const provider = mergeProvider<OIDCConfig<AuthentikProfile>>(
    {
      id: 'authentik',
      name: 'Authentik',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/jwks/'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? p.preferred_username, email: p.email, image: p.picture ?? null }),
      style: { brandColor: '#fd4b2d' },
    },
    options,
  )
  return readsEnv(provider, Authentik, needs('issuer'))
}
