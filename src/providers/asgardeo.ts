import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an Asgardeo organization (ID token / `/oauth2/userinfo`). */
export interface AsgardeoProfile extends StandardClaims {
  given_name?: string
  family_name?: string
  username?: string
}

/** WSO2 Asgardeo. Needs `issuer` (`https://api.asgardeo.io/t/<organization>/oauth2/token`), `clientId`, `clientSecret`. */
export default function Asgardeo(options: OIDCUserConfig<AsgardeoProfile> = {}): OIDCConfig<AsgardeoProfile> {
  const provider = mergeProvider<OIDCConfig<AsgardeoProfile>>(
    {
      id: 'asgardeo',
      name: 'Asgardeo',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: options.issuer && /\/oauth2\/token\/?$/.test(options.issuer) ? options.issuer.replace(/\/token\/?$/, '/jwks') : undefined,
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({
        id: p.sub,
        name: p.name ?? ([p.given_name, p.family_name].filter(Boolean).join(' ') || p.username || null),
        email: p.email ?? null,
        image: p.picture ?? null,
      }),
      style: { brandColor: '#ff7300' },
    },
    options,
  )
  return readsEnv(provider, Asgardeo, needs('issuer'))
}
