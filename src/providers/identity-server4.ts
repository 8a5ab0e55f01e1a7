import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an IdentityServer4 host (ID token / `/connect/userinfo`). */
export interface IdentityServer4Profile extends StandardClaims {
  idp?: string
  amr?: string[]
  sid?: string
}

/** IdentityServer4. Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function IdentityServer4(options: OIDCUserConfig<IdentityServer4Profile> = {}): OIDCConfig<IdentityServer4Profile> {
  const provider = identityServer({ id: 'identity-server4', name: 'IdentityServer4', brandColor: '#4a90e2' }, options)
  return readsEnv(provider, IdentityServer4, needs('issuer'))
}

/** An IdentityServer host (IdentityServer4 and its successor, Duende): the same endpoints and claims. */
export function identityServer(
  brand: { id: string; name: string; brandColor: string },
  options: OIDCUserConfig<IdentityServer4Profile>,
): OIDCConfig<IdentityServer4Profile> {
  return mergeProvider<OIDCConfig<IdentityServer4Profile>>(
    {
      id: brand.id,
      name: brand.name,
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/openid-configuration/jwks'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: brand.brandColor },
    },
    options,
  )
}
