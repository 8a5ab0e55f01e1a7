import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Kinde business (ID token / `/oauth2/v2/user_profile`). */
export interface KindeProfile extends StandardClaims {
  id?: string
  given_name?: string
  family_name?: string
  org_codes?: string[]
}

/** Kinde. Needs `issuer` (`https://<business>.kinde.com`), `clientId`, `clientSecret`. */
export default function Kinde(options: OIDCUserConfig<KindeProfile> = {}): OIDCConfig<KindeProfile> {
  const provider = mergeProvider<OIDCConfig<KindeProfile>>(
    {
      id: 'kinde',
      name: 'Kinde',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/jwks'),
      authorization: { params: { scope: 'openid profile email offline' } },
      profile: (p) => ({
        id: p.sub,
        name: p.name ?? ([p.given_name, p.family_name].filter(Boolean).join(' ') || null),
        email: p.email ?? null,
        image: p.picture ?? null,
      }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Kinde, needs('issuer'))
}
