import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an Ory Hydra / Ory Network OAuth2 server (ID token / `/userinfo`). */
export interface HydraProfile extends StandardClaims {
  sid?: string
}

/** Ory Hydra (self-hosted or Ory Network). Needs `issuer` (the public URL), `clientId`, `clientSecret`. */
export default function Hydra(options: OIDCUserConfig<HydraProfile> = {}): OIDCConfig<HydraProfile> {
  const provider = mergeProvider<OIDCConfig<HydraProfile>>(
    {
      id: 'hydra',
      name: 'Hydra',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/jwks.json'),
      authorization: { params: { scope: 'openid offline email profile' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#4d56cc' },
    },
    options,
  )
  return readsEnv(provider, Hydra, needs('issuer'))
}
