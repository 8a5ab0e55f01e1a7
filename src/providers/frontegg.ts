import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Frontegg login box (ID token). */
export interface FronteggProfile extends StandardClaims {
  email: string
  name: string
  profilePictureUrl?: string
  tenantId?: string
  tenantIds?: string[]
  roles?: string[]
}

/** Frontegg. Needs `issuer` (the app's login domain, `https://<subdomain>.frontegg.com`), `clientId`, `clientSecret`. */
export default function Frontegg(options: OIDCUserConfig<FronteggProfile> = {}): OIDCConfig<FronteggProfile> {
  const provider = mergeProvider<OIDCConfig<FronteggProfile>>(
    {
      id: 'frontegg',
      name: 'Frontegg',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email, image: p.profilePictureUrl ?? p.picture ?? null }),
      style: { brandColor: '#4461f2' },
    },
    options,
  )
  return readsEnv(provider, Frontegg, needs('issuer'))
}
