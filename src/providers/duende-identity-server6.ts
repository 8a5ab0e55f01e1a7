import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims } from './lib/index.js'

/** Claims of a Duende IdentityServer host (ID token / `/connect/userinfo`). */
export interface DuendeISUserProfile extends StandardClaims {
  idp?: string
  amr?: string[]
  sid?: string
}

/** Duende IdentityServer (v6 and later). Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function DuendeIdentityServer6(options: OIDCUserConfig<DuendeISUserProfile>): OIDCConfig<DuendeISUserProfile> {
  return mergeProvider<OIDCConfig<DuendeISUserProfile>>(
    {
      id: 'duende-identity-server6',
      name: 'Duende IdentityServer6',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/openid-configuration/jwks'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#1d4ed8', logo: '/duende-identity-server6.svg' },
    },
    options,
  )
}
