import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a United Effects Core EOS auth group (ID token / `/me`). */
export interface UnitedEffectsProfile extends StandardClaims {
  email: string
}

/** United Effects. Needs `issuer` (`https://auth.unitedeffects.com/<auth-group-id>`), `clientId`, `clientSecret`. */
export default function UnitedEffects(options: OIDCUserConfig<UnitedEffectsProfile> = {}): OIDCConfig<UnitedEffectsProfile> {
  const provider = mergeProvider<OIDCConfig<UnitedEffectsProfile>>(
    {
      id: 'united-effects',
      name: 'United Effects',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid email profile', resource: 'https://auth.unitedeffects.com' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email, image: p.picture ?? null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, UnitedEffects, needs('issuer'))
}
