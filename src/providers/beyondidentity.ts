import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Beyond Identity application (ID token / userinfo). */
export interface BeyondIdentityProfile extends StandardClaims {
  preferred_username: string
  email: string
  name: string
}

/**
 * Beyond Identity (passwordless). Needs `issuer`
 * (`https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`), `clientId`, `clientSecret`.
 */
export default function BeyondIdentity(options: OIDCUserConfig<BeyondIdentityProfile> = {}): OIDCConfig<BeyondIdentityProfile> {
  const provider = mergeProvider<OIDCConfig<BeyondIdentityProfile>>(
    {
      id: 'beyondidentity',
      name: 'Beyond Identity',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? p.preferred_username, email: p.email, image: null }),
      style: { brandColor: '#5077c5' },
    },
    options,
  )
  return readsEnv(provider, BeyondIdentity, needs('issuer'))
}
