import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Logto tenant (ID token / `/oidc/me`). */
export interface LogtoProfile extends StandardClaims {
  username?: string | null
  phone_number?: string
  email_verified?: boolean
  organizations?: string[]
  roles?: string[]
}

/** Logto (cloud or self-hosted). Needs `issuer` (`https://<tenant>.logto.app/oidc`), `clientId`, `clientSecret`. */
export default function Logto(options: OIDCUserConfig<LogtoProfile> = {}): OIDCConfig<LogtoProfile> {
  const provider = mergeProvider<OIDCConfig<LogtoProfile>>(
    {
      id: 'logto',
      name: 'Logto',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/jwks'),
      authorization: { params: { scope: 'openid offline_access profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? p.username ?? null, email: p.email ?? null, image: p.picture ?? null }),
      style: { brandColor: '#5d34f2' },
    },
    options,
  )
  return readsEnv(provider, Logto, needs('issuer'))
}
