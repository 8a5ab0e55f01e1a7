import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, takes } from './lib/index.js'

/** Claims of a Descope project's OIDC federated app (ID token / userinfo). */
export interface DescopeProfile extends StandardClaims {
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
}

/**
 * Descope. Needs `clientId` (the Descope project id) and `clientSecret` (an access key); the issuer
 * defaults to `https://api.descope.com/<project-id>`.
 */
export default function Descope(options: OIDCUserConfig<DescopeProfile> = {}): OIDCConfig<DescopeProfile> {
  const issuer = options.issuer ?? (options.clientId ? `https://api.descope.com/${options.clientId}` : undefined)
  const provider = mergeProvider<OIDCConfig<DescopeProfile>>(
    {
      id: 'descope',
      name: 'Descope',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: p.picture ?? null }),
      style: { brandColor: '#1c1c23' },
    },
    options,
  )
  return readsEnv(provider, Descope, takes('issuer'))
}
