import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a PingOne environment (ID token / `/as/userinfo`). */
export interface PingProfile extends StandardClaims {
  env?: string
  org?: string
  'p1.region'?: string
}

/** PingOne (Ping Identity). Needs `issuer` (`https://auth.pingone.<region>/<environment-id>/as`), `clientId`, `clientSecret`. */
export default function PingId(options: OIDCUserConfig<PingProfile> = {}): OIDCConfig<PingProfile> {
  const provider = mergeProvider<OIDCConfig<PingProfile>>(
    {
      id: 'ping-id',
      name: 'Ping Identity',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/jwks'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#b3282d' },
    },
    options,
  )
  return readsEnv(provider, PingId, needs('issuer'))
}
